"""The organizer's dashboard: registration (form and CSV), check-in, draw, rounds, tables,
súmula status and receipt, W.O., overrides with reasons; and the new-tournament page."""
from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url
from tournaments.models import AuditEntry, CheckIn, Pair, Result, Round, Stage, TableAssignment, Tournament
from draw.models.stages import stage_in_play

pytestmark = pytest.mark.django_db


@pytest.fixture
def org(client):
    return pf.logged_in_organizer(client)


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_dashboard_in_portuguese_before_the_draw(client, org):
    t = pf.tournament(org, pairs=3, draw=False)
    html = client.get(url("dashboard", t)).content.decode()
    assert '<html lang="pt-br">' in html
    assert "Inscrição" in html and "Cadastrar a dupla" in html and "Importar duplas de um arquivo CSV" in html
    assert "Fazer o sorteio e a chave" in html
    assert 'data-testid="next-step"' in html


def test_register_a_pair_with_the_form(client, org):
    t = pf.tournament(org, pairs=0, draw=False)
    data = {"name": "Zap & Copas", "first_name": "Ana", "second_name": "Bia", "second_nickname": "Bi",
            "status": "confirmed"}
    response = client.post(url("register", t), data)
    assert response.status_code == 302 and response["Location"].endswith("#registration")
    pair = Pair.objects.get(tournament=t)
    assert (pair.name, pair.first_player.name, pair.second_player.nickname) == ("Zap & Copas", "Ana", "Bi")
    html = client.get(response["Location"]).content.decode()
    assert "Dupla Zap &amp; Copas cadastrada." in html


def test_register_refused_shows_the_error_on_the_field(client, org):
    t = pf.tournament(org, pairs=1, draw=False)
    name = Pair.objects.get(tournament=t).name
    response = client.post(url("register", t), {"name": name, "first_name": "Ana", "second_name": "Bia"})
    assert response.status_code == 400
    assert Pair.objects.filter(tournament=t).count() == 1
    form = response.context["pair_form"]
    assert form.errors["name"]
    response = client.post(url("register", t), {"name": "Nova", "first_name": "Ana"})
    assert response.status_code == 400 and response.context["pair_form"].errors["second_name"]


def test_csv_import_good_file(client, org):
    t = pf.tournament(org, pairs=0, draw=False)
    text = "dupla;jogador 1;jogador 2\nAs de Ouro;Ana;Bia\nCopas;Caio;Davi\n"
    response = client.post(url("import", t), {"file": SimpleUploadedFile("d.csv", text.encode()),
                                               "mode": "all_or_nothing"})
    assert response.status_code == 302
    assert Pair.objects.filter(tournament=t).count() == 2


def test_csv_import_reports_the_bad_rows(client, org):
    t = pf.tournament(org, pairs=0, draw=False)
    text = "dupla,jogador 1,jogador 2\nBoa,Ana,Bia\n,Caio,Davi\nOutra,Eva,\n"
    response = client.post(url("import", t), {"file": SimpleUploadedFile("d.csv", text.encode()),
                                               "mode": "all_or_nothing"})
    assert response.status_code == 400
    assert Pair.objects.filter(tournament=t).count() == 0
    html = response.content.decode()
    assert 'data-testid="csv-report"' in html
    report = response.context["csv_report"]
    assert sorted(e.row for e in report.errors) == [3, 4]
    for error in report.errors:
        assert f'<td class="num">{error.row}</td>' in html
    assert "Nada foi importado" in html
    # the good rows only
    response = client.post(url("import", t), {"file": SimpleUploadedFile("d.csv", text.encode()),
                                               "mode": "valid_rows"})
    assert response.status_code == 200
    assert list(Pair.objects.filter(tournament=t).values_list("name", flat=True)) == ["Boa"]


def test_configure_the_format(client, org):
    t = pf.tournament(org, pairs=4, draw=False)
    response = client.post(url("configure", t), {"format": "double_elimination", "seeding": "lot",
                                                  "grand_final_reset": "on", "group_count": 1,
                                                  "qualifiers_per_group": 2,
                                                  "tiebreaks": ["matches_won", "point_difference"]})
    assert response.status_code == 302
    stage = Stage.objects.get(tournament=t)
    assert (stage.format, stage.seeding, stage.tiebreaks) == ("double_elimination", "lot",
                                                              ["matches_won", "point_difference"])


def test_check_in_with_a_tap_and_undo(client, org):
    t = pf.tournament(org, pairs=3, draw=False)
    Tournament.objects.filter(pk=t.pk).update(check_in_required=True)
    pair = Pair.objects.filter(tournament=t).first()
    html = client.get(url("dashboard", t)).content.decode()
    assert 'id="checkin"' in html and 'aria-pressed="false"' in html
    response = client.post(url("check-in", t), {"pair": pair.pk})
    assert response.status_code == 302 and response["Location"].endswith(f"#checkin-{pair.pk}")
    assert CheckIn.objects.filter(pair=pair, round__number=1).exists()
    html = client.get(url("dashboard", t)).content.decode()
    assert 'aria-pressed="true"' in html and "(1/3)" in html
    client.post(url("check-in", t), {"pair": pair.pk, "undo": "1"})
    assert not CheckIn.objects.filter(pair=pair).exists()


def test_draw_then_matches_with_sumula_links_and_status(client, org):
    t = pf.tournament(org, pairs=4, draw=False)
    response = client.post(url("draw", t))
    assert response.status_code == 302
    assert Round.objects.get(tournament=t, number=1).is_generated
    html = client.get(url("dashboard", t)).content.decode()
    for match in Match.objects.filter(tournament=t):
        assert reverse("scoring:match", kwargs={"pk": match.pk}) in html
    assert html.count('class="st st-open"') == 2
    assert reverse("printing:round", kwargs={"pk": Round.objects.get(tournament=t, number=1).pk}) in html
    # a second draw is refused with a message
    response = client.post(url("draw", t), follow=True)
    assert response.redirect_chain[-1][0].endswith("#rounds") and messages_of(response)
    assert Match.objects.filter(tournament=t).count() == 2


def test_receive_a_signed_sumula_from_the_dashboard(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    f.play(match, match.pair_a, org, receive_it=False)
    html = client.get(url("dashboard", t)).content.decode()
    assert 'class="st st-signed"' in html and 'data-testid="receive"' in html
    back = url("dashboard", t) + f"?rodada=1#match-{match.pk}"
    response = client.post(url("receive", t, pk=match.pk), {"rodada": 1})
    assert response.status_code == 302 and response["Location"] == back
    match.refresh_from_db()
    assert match.status == Match.Status.RECEIVED
    result = Result.objects.get(match=match)
    assert result.kind == Result.Kind.SUMULA and result.winner_id == match.pair_a_id
    html = client.get(url("dashboard", t)).content.decode()
    assert 'class="st st-received"' in html
    # receiving twice is refused with scoring's reason, nothing breaks
    response = client.post(url("receive", t, pk=match.pk), follow=True)
    assert messages_of(response)


def test_the_final_through_the_sumula_makes_the_champion(client, org):
    t = pf.tournament(org, pairs=2)
    final = pf.open_matches(t)[0]
    f.play(final, final.pair_b, org, receive_it=False)
    client.post(url("receive", t, pk=final.pk))
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    html = client.get(url("bracket", t)).content.decode()
    assert 'data-testid="champion"' in html and final.pair_b.name in html


def test_walkover_from_the_dashboard(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    response = client.post(url("walkover", t, pk=match.pk), {"absent": match.pair_b_id, "reason": "atrasou",
                                                            "rodada": 1})
    assert response.status_code == 302 and response["Location"].endswith(f"?rodada=1#match-{match.pk}")
    result = Result.objects.get(match=match)
    assert result.kind == Result.Kind.WALKOVER and result.winner_id == match.pair_a_id
    # twice: refused with a message, nothing changes
    response = client.post(url("walkover", t, pk=match.pk), {"absent": match.pair_a_id}, follow=True)
    assert messages_of(response)
    assert Result.objects.get(match=match).winner_id == match.pair_a_id


def test_set_result_needs_a_reason(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    response = client.post(url("result", t, pk=match.pk), {"winner": match.pair_b_id, "reason": ""}, follow=True)
    assert not Result.objects.filter(match=match).exists()
    assert messages_of(response)
    client.post(url("result", t, pk=match.pk), {"winner": match.pair_b_id, "reason": "súmula perdida",
                                               "points_a": 5, "points_b": 12})
    result = Result.objects.get(match=match)
    assert (result.kind, result.winner_id, result.games_b, result.points_b) == ("manual", match.pair_b_id, 1, 12)
    assert AuditEntry.objects.filter(tournament=t, action="result_set", reason="súmula perdida").exists()


def test_next_round_with_one_click(client, org):
    t = pf.tournament(org, pairs=6, format="swiss", swiss_rounds=3)
    response = client.post(url("next-round", t), follow=True)
    assert messages_of(response)  # results missing: refused with the service's reason
    assert not Round.objects.filter(tournament=t, number=2, generated_at__isnull=False).exists()
    pf.play_all(t, org, next_rounds=False)
    response = client.post(url("next-round", t))
    assert response.status_code == 302 and "rodada=2" in response["Location"]
    assert Round.objects.get(tournament=t, number=2).is_generated


def test_regenerate_needs_a_reason_and_is_audited(client, org):
    t = pf.tournament(org, pairs=6, format="swiss")
    before = set(Match.objects.filter(tournament=t).values_list("pk", flat=True))
    response = client.post(url("regenerate", t, number=1), {"reason": " "}, follow=True)
    assert messages_of(response)
    assert set(Match.objects.filter(tournament=t).values_list("pk", flat=True)) == before
    response = client.post(url("regenerate", t, number=1), {"reason": "a dupla 3 chegou"})
    assert response.status_code == 302
    assert set(Match.objects.filter(tournament=t).values_list("pk", flat=True)).isdisjoint(before)
    assert AuditEntry.objects.filter(tournament=t, action="round_regenerated", reason="a dupla 3 chegou").exists()


def test_withdraw_a_pair(client, org):
    t = pf.tournament(org, pairs=4)
    match = pf.open_matches(t)[0]
    response = client.post(url("withdraw", t, pk=match.pair_a_id), {"reason": "lesão"})
    assert response.status_code == 302
    pair = Pair.objects.get(pk=match.pair_a_id)
    assert pair.status == Pair.Status.WITHDRAWN and pair.withdrawal_reason == "lesão"
    assert Result.objects.get(match=match).kind == Result.Kind.WALKOVER
    response = client.post(url("withdraw", t, pk=match.pair_b_id), {"reason": ""}, follow=True)
    assert messages_of(response)
    assert Pair.objects.get(pk=match.pair_b_id).status == Pair.Status.CONFIRMED


def test_assign_a_referee_to_a_table(client, org):
    t = pf.tournament(org, pairs=4)
    referee = f.referee_of(t, f.user("juiz"))
    response = client.post(url("referee", t), {"table": 1, "referee": referee.pk})
    assert response.status_code == 302
    assert TableAssignment.objects.get(tournament=t, table=1).referee == referee
    assert Match.objects.get(tournament=t, table=1).referee == referee
    html = client.get(url("dashboard", t)).content.decode()
    assert "juiz" in html
    client.post(url("referee", t), {"table": 1, "referee": ""})
    assert not TableAssignment.objects.filter(tournament=t).exists()


def test_swap_tables_with_a_reason(client, org):
    t = pf.tournament(org, pairs=4)
    first, second = pf.open_matches(t)[:2]
    client.post(url("swap-tables", t, pk=first.pk), {"table": second.table, "reason": "luz ruim"})
    first.refresh_from_db()
    assert first.table == 2
    assert AuditEntry.objects.filter(tournament=t, action="tables_swapped").exists()


def test_dashboard_round_selector(client, org):
    t = pf.tournament(org, pairs=4)
    pf.play_all(t, org)
    html = client.get(url("dashboard", t) + "?rodada=1").content.decode()
    assert html.count('data-match="') == 2
    html = client.get(url("dashboard", t) + "?rodada=2").content.decode()
    assert html.count('data-match="') == 1


def test_new_tournament_page(client):
    staff = f.organizer("chefe")
    client.force_login(staff)
    assert client.get(reverse("tournaments:new")).status_code == 200
    response = client.post(reverse("tournaments:new"), {"name": "Copa do Bar", "date": "2026-06-01",
                                                        "venue": "Bar do Zé", "best_of": 3,
                                                        "format": "single_elimination"})
    t = Tournament.objects.get(slug="copa-do-bar")
    assert response.status_code == 302 and response["Location"] == url("dashboard", t) + "#registration"  # the focus on the first pair
    assert t.organizer == staff and t.best_of == 3 and stage_in_play(t).format == "single_elimination"
    response = client.post(reverse("tournaments:new"), {"name": "", "date": "", "format": "swiss", "best_of": 1})
    assert response.status_code == 400


def test_home_offers_a_new_tournament_to_organizers_only(client):
    assert reverse("tournaments:new") not in client.get("/").content.decode()
    client.force_login(f.user("jogador"))
    assert reverse("tournaments:new") not in client.get("/").content.decode()
    client.force_login(f.organizer("chefe"))
    assert reverse("tournaments:new") in client.get("/").content.decode()


def test_confirm_a_pending_registration(client, org):
    t = pf.tournament(org, pairs=2, draw=False)
    pair = Pair.objects.filter(tournament=t).first()
    Pair.objects.filter(pk=pair.pk).update(status=Pair.Status.PENDING)
    html = client.get(url("dashboard", t)).content.decode()
    assert url("confirm", t, pk=pair.pk) in html and "aguardando confirmação" in html
    response = client.post(url("confirm", t, pk=pair.pk), follow=True)
    assert "Inscrição de P1 confirmada." in messages_of(response)
    assert Pair.objects.get(pk=pair.pk).status == Pair.Status.CONFIRMED


def test_a_background_post_gets_back_only_the_sections_it_replaces(client, org):
    """The quick result's answer: the redirect to the dashboard carries X-Dashboard-Parts and the page
    answers only those sections and the messages (the roster, the audit log, the other panels stay)."""
    t = pf.tournament(org, pairs=12, format="groups_knockout", group_count=3, qualifiers_per_group=2)
    match = pf.open_matches(t)[0]
    whole = client.get(url("dashboard", t))
    parts = "matches rounds next-step stages room"
    answer = client.post(reverse("tournaments:result", kwargs={"slug": t.slug, "pk": match.pk}),
                         {"winner": match.pair_a_id, "loser_points": "7", "reason": "súmula de papel"},
                         HTTP_X_DASHBOARD_PARTS=parts, follow=True)
    html = answer.content.decode()
    assert answer.status_code == 200 and "X-Dashboard-Parts" in answer["Vary"]
    for part in ("matches", "rounds", "next-step", "stages", "room", "messages"):
        assert f'id="{part}"' in html, part
    assert 'id="pairs"' not in html and 'id="audit"' not in html and "<html" not in html
    assert "12–7" in html and len(html) < len(whole.content) * 2 / 3
    # an unknown name is no part: the whole page
    assert b'id="audit"' in client.get(url("dashboard", t), HTTP_X_DASHBOARD_PARTS="audit nothing").content


def test_the_draw_comes_back_in_place_with_the_whole_panels(client, org):
    """The draw changes the dashboard's whole order (the matches first): its background post asks for the
    panels whole and the head, and gets them with the matches, not the page."""
    t = pf.tournament(org, pairs=4, draw=False)
    form = client.get(url("dashboard", t)).content.decode()
    assert 'data-fragment="panels next-step" data-focus-in="matches"' in form
    answer = client.post(reverse("tournaments:draw", kwargs={"slug": t.slug}),
                         HTTP_X_DASHBOARD_PARTS="panels next-step", follow=True)
    html = answer.content.decode()
    assert answer.status_code == 200 and "<html" not in html
    for part in ("panels", "next-step", "matches", "rounds", "pairs", "messages"):
        assert f'id="{part}"' in html, part
    assert "Sorteio feito" in html and html.count('data-testid="quick-result"') == 2


def test_a_referee_is_invited_from_the_dashboard_in_place(client, org):
    """The Tables panel's fold posts to the invitations' page in the background; its answer (that page, the
    link just made in #new-link) is what the dashboard's script takes in place."""
    t = pf.tournament(org, pairs=4, draw=False)
    html = client.get(url("dashboard", t)).content.decode()
    invitations = reverse("invitations:list", kwargs={"slug": t.slug})
    assert f'action="{invitations}"' in html and 'data-fragment="new-link" data-reset' in html
    assert '<div id="new-link" hidden></div>' in html
    answer = client.post(invitations, {"name": "Carla Mendes"}, HTTP_X_DASHBOARD_PARTS="new-link", follow=True)
    page = answer.content.decode()
    assert answer.status_code == 200 and 'id="new-link"' in page and 'id="invite-url"' in page
    assert 'id="messages"' in page and "Carla Mendes" in page
