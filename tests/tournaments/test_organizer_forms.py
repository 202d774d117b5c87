"""The organizer's forms: format options in the creation form, pairs editable until
the draw (audited), tiebreaks as an ordered list, a draw button that says what it does."""
from __future__ import annotations

from draw.models.stages import stage_in_play

import pytest
from django.urls import reverse

from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments.models import AuditEntry, Stage, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


def test_the_creation_form_takes_the_third_place_and_the_seeding(client):
    client.force_login(f.organizer("chefe"))
    html = client.get(reverse("tournaments:new")).content.decode()
    assert "Disputa de 3º lugar" in html
    client.post(reverse("tournaments:new"), {"name": "Copa", "date": "2026-06-01", "best_of": 1,
                                             "format": "single_elimination", "third_place": "on",
                                             "seeding": "rating"})
    stage = stage_in_play(Tournament.objects.get(slug="copa"))
    assert stage.third_place and stage.seeding == "rating"


def test_the_creation_form_takes_a_whole_groups_then_knockout_event(client):
    """The organizer's day in fewer taps: 3 groups of 4, the top 2 and the 2 best thirds in a
    knockout of 8 with a third place and a best-of-3 final, in the one creation form."""
    client.force_login(f.organizer("chefe"))
    response = client.post(reverse("tournaments:new"), {
        "name": "Copa", "date": "2026-06-01", "best_of": 1, "format": "groups_knockout", "group_count": "3",
        "qualifiers_per_group": "", "next_place_qualifiers": "2", "third_place": "on", "final_best_of": "3"})
    assert response.status_code == 302
    groups, knockout = Stage.objects.filter(tournament__slug="copa").order_by("position")
    assert (groups.format, groups.group_count, groups.qualifiers_per_group) == ("round_robin", 3, 2)
    assert (knockout.format, knockout.qualification, knockout.qualifiers_per_group) == ("single_elimination",
                                                                                         "per_group", 2)
    assert knockout.qualifiers == 2 and knockout.third_place and knockout.round_best_of == {"-1": 3}
    assert groups.round_best_of == {}


def test_a_tournament_created_with_its_whole_format_logs_the_format_once(client):
    """Creating a groups → knockout event with the best thirds and a best-of-3 final is one step: the activity
    log says "Formato definido" once (it said it twice: the groups, then the knockout's own options), and the
    entry holds both stages."""
    client.force_login(f.organizer("chefe"))
    client.post(reverse("tournaments:new"), {
        "name": "Copa", "date": "2026-06-01", "best_of": 1, "format": "groups_knockout", "group_count": "3",
        "next_place_qualifiers": "2", "third_place": "on", "final_best_of": "3"})
    client.post(reverse("tournaments:new"), {"name": "Mata", "date": "2026-06-01", "best_of": 1,
                                             "format": "single_elimination", "final_best_of": "3"})
    entries = AuditEntry.objects.filter(tournament__slug="copa", action="stage_configured")
    assert entries.count() == 1
    after = entries.get().after
    assert after["position"] == 1 and after["group_count"] == 3
    assert after["knockout"]["qualifiers"] == 2 and after["knockout"]["round_best_of"] == {"-1": 3}
    assert AuditEntry.objects.filter(tournament__slug="mata", action="stage_configured").count() == 1
    html = client.get(url("dashboard", Tournament.objects.get(slug="copa"))).content.decode()
    assert html.count("Formato definido") == 1


def test_the_creation_form_sets_a_knockouts_final_and_refuses_options_of_another_format(client):
    client.force_login(f.organizer("chefe"))
    client.post(reverse("tournaments:new"), {"name": "Copa", "date": "2026-06-01", "best_of": 1,
                                             "format": "single_elimination", "final_best_of": "5"})
    assert stage_in_play(Tournament.objects.get(slug="copa")).round_best_of == {"-1": 5}
    response = client.post(reverse("tournaments:new"), {"name": "Suíço", "date": "2026-06-01", "best_of": 1,
                                                        "format": "swiss", "group_count": "2", "final_best_of": "3"})
    assert response.status_code == 400 and not Tournament.objects.filter(name="Suíço").exists()
    html = response.content.decode()
    assert html.count("Só para:") == 2  # both named beside their fields, never dropped silently
    assert 'data-formats="round_robin groups_knockout"' in html  # the page shows a format's own options only


def test_a_pair_is_edited_before_the_draw_and_the_change_is_audited(client, org):
    t = pf.tournament(org, pairs=3, draw=False)
    pair = t.pairs.order_by("pk").first()
    response = client.post(url("edit-pair", t, pk=pair.pk), {
        "name": "Os Zapeiros", "first_name": "Novo Jogador", "first_nickname": "",
        "second_name": pair.second_player.name, "second_nickname": pair.second_player.nickname,
        "substitute_name": "", "seed": "7", "rating": ""})
    assert response.status_code == 302 and response["Location"].endswith(f"#pair-{pair.pk}")
    pair.refresh_from_db()
    assert (pair.name, pair.first_player.name, pair.seed) == ("Os Zapeiros", "Novo Jogador", 7)
    entry = AuditEntry.objects.filter(tournament=t, action="pair_updated").latest("at")
    assert entry.before["name"] != "Os Zapeiros" and entry.after["seed"] == 7


def test_after_the_draw_players_and_seeds_are_locked_but_the_name_is_audited(client, org):
    t = pf.tournament(org, pairs=4)
    pair = t.pairs.order_by("pk").first()
    data = {"name": pair.name, "first_name": "Outro", "first_nickname": "",
            "second_name": pair.second_player.name, "second_nickname": pair.second_player.nickname,
            "seed": pair.seed or "", "rating": ""}
    page = client.post(url("edit-pair", t, pk=pair.pk), data, follow=True).content.decode()
    assert "O sorteio já foi feito" in page and "Primeiro jogador" in page
    pair.refresh_from_db()
    assert pair.first_player.name != "Outro"
    data.update(first_name=pair.first_player.name, first_nickname=pair.first_player.nickname, name="Nome Corrigido")
    client.post(url("edit-pair", t, pk=pair.pk), data)
    pair.refresh_from_db()
    assert pair.name == "Nome Corrigido"
    assert AuditEntry.objects.filter(tournament=t, action="pair_updated", after__name="Nome Corrigido").exists()


def test_tiebreaks_are_an_ordered_list_with_portuguese_names_and_positions(client, org):
    t = pf.tournament(org, pairs=4, draw=False)
    Stage.objects.filter(tournament=t).update(format="round_robin")
    html = client.get(url("dashboard", t)).content.decode()
    assert "Confronto direto" in html and "O resultado entre as próprias duplas empatadas." in html
    assert "head_to_head" not in html.replace('value="head_to_head"', "").replace("_position_head_to_head", "")
    assert 'data-move="-1"' in html
    response = client.post(url("configure", t), {
        "format": "round_robin", "seeding": "order", "group_count": 1, "qualifiers_per_group": 2,
        "tiebreaks": ["matches_won", "point_difference", "head_to_head"],
        "tiebreaks_position_matches_won": "3", "tiebreaks_position_point_difference": "1",
        "tiebreaks_position_head_to_head": "2"})
    assert response.status_code == 302
    assert Stage.objects.get(tournament=t).tiebreaks == ["point_difference", "head_to_head", "matches_won"]


def test_the_draw_button_says_what_the_seeding_does(client, org):
    t = pf.tournament(org, pairs=4, draw=False)
    Stage.objects.filter(tournament=t).update(seeding="order")
    html = client.get(url("dashboard", t)).content.decode()
    assert "na ordem do organizador, sem sorteio" in html
    Stage.objects.filter(tournament=t).update(seeding="lot")
    assert "posições sorteadas" in client.get(url("dashboard", t)).content.decode()


def test_the_summary_says_the_third_place_is_on_and_the_match_is_labelled(client, org):
    t = pf.tournament(org, pairs=4, third_place=True)
    html = client.get(url("dashboard", t)).content.decode()
    assert "com disputa de 3º lugar" in html
    for match in pf.open_matches(t):
        pf.decide(match, org)
    third = next(m for m in pf.open_matches(t) if m.bracket_node.section == "third_place")
    final_round = third.round.number
    html = client.get(url("dashboard", t) + f"?rodada={final_round}").content.decode()
    assert 'class="st st-third"' in html
    public = client.get(url("round", t, number=final_round)).content.decode()
    assert "Disputa de 3º lugar" in public


def test_one_number_per_match_the_brackets_on_every_page(client, org):
    from scoring import numbering
    from printing import jobs as printing
    from tournaments.svg import match_numbers
    from tournaments import services

    t = pf.tournament(org, pairs=8)
    numbers = match_numbers(services.bracket_view(t).bracket)
    match = pf.open_matches(t)[-1]
    number = numbers[match.bracket_node.code]
    assert number != match.pk or True
    assert numbering.number_of(match) == number
    dashboard = client.get(url("dashboard", t)).content.decode()
    assert f"jogo {number}" in dashboard
    sumula = client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    assert f"Jogo {number}</" in sumula or f"Jogo {number}\n" in sumula
    assert "Mesa %s" % match.table in sumula
    [sheet] = printing._with_numbers(printing.sheets_for(printing.ordered_matches([match.pk]), "blank"),
                                     [match], "")
    from scoring import pdf
    assert "Jogo</span>" not in pdf.sheet_html("blank", sheet)
    assert f"Jogo {number}" in pdf.sheet_html("blank", sheet)
