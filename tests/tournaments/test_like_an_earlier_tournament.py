"""A new tournament like an earlier one ("like last month's"): ``?como=<slug>`` fills the form with that
event's format and options (never its pairs, date or name), only for an event the organizer runs, and the
tournament created has the same format, rule set and public sign-up options."""
from __future__ import annotations

import pytest
from django.urls import reverse

from draw.models import Stage
from events.models import OrganizationMember, SignUpSettings
from tests.tournaments import factories as f
from tournaments import services
from tournaments.models import Tournament
from tournaments.services import signup_review

pytestmark = pytest.mark.django_db

NEW = reverse("tournaments:new")


def last_month(client, org) -> Tournament:
    client.post(NEW, {"name": "Copa de Outubro", "date": "2026-10-10", "venue": "Clube Sete de Ouros",
                      "best_of": 1, "format": "groups_knockout", "group_count": "3", "qualifiers_per_group": "2",
                      "next_place_qualifiers": "2", "third_place": "on", "final_best_of": "3",
                      "check_in_required": "on"})
    source = Tournament.objects.get(name="Copa de Outubro")
    source = services.update_tournament(source, org, rule_set={"preset": "regulamento-tecnico",
                                                               "options": {"deck": "limpo", "raises": "any_time"}})
    signup_review.configure_signup(source, org, open=True, pair_limit=16, waiting_list=True, deadline=None,
                                   approval_required=True)
    f.pairs(source, 4)
    return source


def test_the_form_is_filled_with_every_option_of_the_earlier_tournament(client):
    org = f.organizer("chefe")
    client.force_login(org)
    source = last_month(client, org)
    page = client.get(NEW)
    assert [t.slug for t in page.context["earlier"]] == [source.slug]
    assert "Igual a…" in page.content.decode()
    response = client.get(NEW, {"como": source.slug})
    assert response.status_code == 200
    form = response.context["form"]
    assert {name: form[name].value() for name in (
        "venue", "best_of", "format", "group_count", "qualifiers_per_group", "next_place_qualifiers",
        "third_place", "final_best_of", "check_in_required")} == {
        "venue": "Clube Sete de Ouros", "best_of": 1, "format": "groups_knockout", "group_count": 3,
        "qualifiers_per_group": 2, "next_place_qualifiers": 2, "third_place": True, "final_best_of": 3,
        "check_in_required": True}
    assert not form["name"].value() and not form["date"].value()  # its own name and date
    html = response.content.decode()
    assert f'<option value="{source.slug}" selected>' in html and "Copa de Outubro" in html


def test_the_tournament_created_like_it_has_the_same_format_and_no_pairs(client):
    org = f.organizer("chefe")
    client.force_login(org)
    source = last_month(client, org)
    form = client.get(NEW, {"como": source.slug}).context["form"]
    data = {name: value for name in form.fields if (value := form[name].value()) not in (None, "", False)}
    data.update({"name": "Copa de Novembro", "date": "2026-11-14", "third_place": "on", "check_in_required": "on"})
    response = client.post(f"{NEW}?como={source.slug}", data)
    assert response.status_code == 302, response.context["form"].errors
    made = Tournament.objects.get(name="Copa de Novembro")
    assert (made.venue, made.best_of, made.check_in_required, made.rule_set) == (
        source.venue, source.best_of, True, source.rule_set)
    assert made.rule_set["options"]["deck"] == "limpo"
    assert made.pairs.count() == 0 and str(made.date) == "2026-11-14"
    fields = ("format", "group_count", "qualifiers_per_group", "qualification", "qualifiers", "third_place",
              "round_best_of", "tiebreaks", "seeding")
    old = [[getattr(st, n) for n in fields] for st in Stage.objects.filter(tournament=source).order_by("position")]
    new = [[getattr(st, n) for n in fields] for st in Stage.objects.filter(tournament=made).order_by("position")]
    assert new == old and len(new) == 2
    options = SignUpSettings.objects.get(tournament=made)
    assert (options.open, options.pair_limit, options.waiting_list, options.approval_required) == (True, 16, True, True)


def test_another_organizations_tournament_is_refused(client):
    theirs = f.organizer("outro")
    client.force_login(theirs)
    other = last_month(client, theirs)
    mine = f.organizer("chefe")
    client.force_login(mine)
    assert client.get(NEW, {"como": other.slug}).status_code == 404
    response = client.post(f"{NEW}?como={other.slug}", {"name": "Cópia", "date": "2026-11-14", "best_of": 1,
                                                         "format": "single_elimination"})
    assert response.status_code == 404 and not Tournament.objects.filter(name="Cópia").exists()
    assert other.slug not in client.get(NEW).content.decode()


def test_a_tournament_of_ones_organization_is_offered(client):
    org = f.organizer("chefe")
    client.force_login(org)
    source = last_month(client, org)
    colleague = f.organizer("colega")
    OrganizationMember.objects.get_or_create(organization=source.organization, user=colleague,
                                             defaults={"role": "organizer"})
    client.force_login(colleague)
    assert client.get(NEW, {"como": source.slug}).status_code == 200


@pytest.mark.parametrize("chosen", ["single_elimination", "double_elimination", "round_robin", "swiss"])
def test_every_format_is_created_again_as_it_was(client, chosen):
    org = f.organizer("chefe")
    client.force_login(org)
    extra = {"final_best_of": "3", "third_place": "on"} if chosen == "single_elimination" else {}
    client.post(NEW, {"name": "Antes", "date": "2026-10-10", "best_of": 3, "format": chosen, "seeding": "lot",
                      **extra})
    source = Tournament.objects.get(name="Antes")
    form = client.get(NEW, {"como": source.slug}).context["form"]
    data = {name: value for name in form.fields if (value := form[name].value()) not in (None, "", False)}
    data.update({"name": "Depois", "date": "2026-11-14", **{k: "on" for k, v in data.items() if v is True}})
    response = client.post(f"{NEW}?como={source.slug}", data)
    assert response.status_code == 302, response.context["form"].errors
    made = Tournament.objects.get(name="Depois")
    fields = ("format", "seeding", "third_place", "grand_final_reset", "group_count", "round_best_of", "tiebreaks",
              "swiss_rounds", "best_of")
    assert [getattr(Stage.objects.get(tournament=made), n) for n in fields] == [
        getattr(Stage.objects.get(tournament=source), n) for n in fields]
    assert made.best_of == 3
