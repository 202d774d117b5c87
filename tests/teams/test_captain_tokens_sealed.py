"""The captain's link is never stored in clear (``tables.token_keys``, as the table links): a team's row holds
the token's keyed digest and its sealed text, neither of which opens the captain's page; the organizer's page
still shows the link (unsealed); a new link refuses the old one at once; a link given before a ``SECRET_KEY``
rotation opens while the old key is a fallback; the migration keeps every link already given working."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client

from people.models import Club
from tables import token_keys
from teams import services
from teams.models import Team

from tests.migrations import back_to_latest, migrate_to, start_at
from tests.teams.helpers import event
from tests.tournaments import factories as f


def opens(token: str) -> bool:
    return Client().get(f"/equipes/capitao/{token}/").status_code == 200


def organizer_page(org, tournament) -> str:
    c = Client()
    c.force_login(org)
    return c.get(f"/equipes/{tournament.slug}/painel/").content.decode()


def raw_values() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {connection.ops.quote_name(Team._meta.db_table)}")
        return [str(value) for row in cursor.fetchall() for value in row if value is not None]


@pytest.mark.django_db
def test_no_row_nor_dump_holds_a_token_that_opens_a_captain_page():
    org = f.organizer("org")
    t, (home, away) = event(org, teams=2, pairs=1, slug="liga")
    tokens = [services.issue_captain_link(team, org) for team in (home, away)]
    assert all(opens(token) for token in tokens) and tokens[0] != tokens[1]
    values = raw_values()
    for token in tokens:
        assert not any(token in value for value in values)
    for value in values:  # not the digest, not the sealed text, nor any other column
        if 20 <= len(value) <= 255 and "/" not in value:
            assert services.team_of_link(value) is None
    dump = io.StringIO()
    call_command("dumpdata", "teams", stdout=dump)
    assert not any(token in dump.getvalue() for token in tokens)
    row = Team.objects.get(pk=home.pk)
    assert row.captain_digest == token_keys.digest(tokens[0]) and tokens[0] not in row.captain_sealed
    assert row.captain_token == tokens[0]  # unsealed for the organizer's page
    page = organizer_page(org, t)
    assert f"/equipes/capitao/{tokens[0]}/" in page and f"/equipes/capitao/{tokens[1]}/" in page


@pytest.mark.django_db
def test_a_replaced_link_is_refused_and_the_new_one_opens():
    org = f.organizer("org")
    t, (home, _away) = event(org, teams=2, pairs=1, slug="liga")
    old = services.issue_captain_link(home, org)
    new = services.issue_captain_link(Team.objects.get(pk=home.pk), org)
    assert new != old and not opens(old) and opens(new)
    assert services.team_of_link(old) is None and services.team_of_link(new) == home
    page = organizer_page(org, t)
    assert f"/equipes/capitao/{new}/" in page and old not in page


@pytest.mark.django_db
def test_a_token_is_found_by_its_digest_only():
    org = f.organizer("org")
    _t, (home, _away) = event(org, teams=2, pairs=1, slug="liga")
    token = services.issue_captain_link(home, org)
    assert services.team_of_link(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert services.team_of_link(token_keys.digest(token)) is None
    assert services.team_of_link(Team.objects.get(pk=home.pk).captain_sealed) is None
    assert services.team_of_link("") is None and services.team_of_link("x" * 65) is None
    assert services.team_of_link(token) == home
    assert Team.objects.get(pk=_away.pk).captain_token is None  # no link: no digest, nothing sealed


@pytest.mark.django_db
def test_a_link_given_before_a_key_rotation_opens_while_the_old_key_is_kept(settings):
    org = f.organizer("org")
    t, (home, _away) = event(org, teams=2, pairs=1, slug="liga")
    token = services.issue_captain_link(home, org)
    old = settings.SECRET_KEY
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a-new-secret-key-" + "x" * 40, [old]
    assert opens(token) and f"/equipes/capitao/{token}/" in organizer_page(org, t)
    settings.SECRET_KEY_FALLBACKS = []  # the old key dropped: the link stops, and is never read by a wrong key
    assert not opens(token)
    page = organizer_page(org, t)  # no link shown; the organizer issues a new one
    assert "/equipes/capitao/" not in page and "Novo link do capitão" in page
    fresh = services.issue_captain_link(Team.objects.get(pk=home.pk), org)
    assert opens(fresh) and f"/equipes/capitao/{fresh}/" in organizer_page(org, t)


BEFORE = [("teams", "0002_knockout_and_captain_links")]
AFTER = [("teams", "0003_captain_tokens_sealed")]


@pytest.mark.django_db(transaction=True)
def test_a_link_given_before_the_migration_still_opens_after_it():
    org = f.organizer("org")
    tournament = f.tournament(org, slug="liga")
    club = Club.objects.create(name="Clube antigo")
    token = "c" * 32
    try:
        apps = start_at(connection, BEFORE)
        old_team = apps.get_model("teams", "Team").objects.create(
            tournament_id=tournament.pk, club_id=club.pk, name="Antigo", captain_token=token)
        apps.get_model("teams", "Team").objects.create(tournament_id=tournament.pk, club_id=club.pk, name="Sem link")
        migrate_to(connection, AFTER)
        assert not any(token in value for value in raw_values())
        row = Team.objects.get(pk=old_team.pk)
        assert row.captain_digest == token_keys.digest(token) and row.captain_token == token
        assert Team.objects.get(name="Sem link").captain_digest is None
        assert opens(token) and services.team_of_link(token) == row
        apps = migrate_to(connection, BEFORE)  # and back: the token in its old column again
        assert apps.get_model("teams", "Team").objects.get(pk=old_team.pk).captain_token == token
        migrate_to(connection, AFTER)
        assert opens(token)
    finally:
        back_to_latest(connection)
