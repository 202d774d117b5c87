"""The player's page: public history; contact only to the organizers of events the player
entered; the discipline record only to those organizers and the referees of those events."""
import pytest
from django.test import Client

from people.services import clubs
from tests.people.helpers import event
from tests.tournaments import factories as f

pytestmark = pytest.mark.django_db


def test_public_history_private_contact_and_discipline():
    org = f.user("org")
    t, pair, rivals, match = event(org, "copa", {"name": "Ana Souza", "club": "Clube do  Trúco"})
    ana = pair.first_player
    ana.contact = "ana@x"
    ana.save(update_fields=["contact"])
    assert ana.club.name == "Clube do  Trúco".replace("  ", " ")
    assert clubs.club_named("clube do truco") == ana.club  # one club, however it is spelled
    public = Client().get(f"/jogadores/{ana.pk}/").content.decode()
    assert 'data-testid="player-history"' in public and "Copa" in public and "Rivals copa" in public
    assert "ana@x" not in public and 'data-testid="section-discipline"' not in public
    referee = f.user("ref")
    type(match).objects.filter(pk=match.pk).update(referee=referee)
    for user, sees_contact in ((org, True), (referee, False)):  # org entered her (and her contact)
        c = Client()
        c.force_login(user)
        html = c.get(f"/jogadores/{ana.pk}/").content.decode()
        assert 'data-testid="section-discipline"' in html and 'data-testid="discipline-clean"' in html
        assert ("ana@x" in html) is sees_contact
    other = f.user("other")
    ana.entered_by = other  # somebody else's contact: not even the organizer of her event reads it
    ana.save(update_fields=["entered_by"])
    c = Client()
    c.force_login(org)
    assert "ana@x" not in c.get(f"/jogadores/{ana.pk}/").content.decode()
    ana.entered_by = None  # a contact of unknown origin: the organizers of the events she entered
    ana.save(update_fields=["entered_by"])
    assert "ana@x" in c.get(f"/jogadores/{ana.pk}/").content.decode()
    c.force_login(other)
    html = c.get(f"/jogadores/{ana.pk}/").content.decode()
    assert "ana@x" not in html and 'data-testid="section-discipline"' not in html


def test_the_discipline_record_follows_the_player_across_events():
    from scoring import services as scoring

    org = f.user("org")
    _, pair, _, match = event(org, "copa", {"name": "Ana"}, decide=False)
    team = 0 if match.pair_a_id == pair.pk else 1
    scoring.record_penalty(match, team, 1, "art. 24", "Palavra de orientação", org)
    scoring.record_penalty(match, 1 - team, 1, "art. 24", "Not hers", org)
    c = Client()
    c.force_login(org)
    html = c.get(f"/jogadores/{pair.first_player.pk}/").content.decode()
    assert 'data-testid="discipline"' in html and "Palavra de orientação" in html and "Not hers" not in html
    assert "Palavra de orientação" not in Client().get(f"/jogadores/{pair.first_player.pk}/").content.decode()


def test_a_finished_tournament_shows_each_pairs_placing():
    """docs/people.md: every tournament with the pair, partner and placing (once the tournament is finished)."""
    from tournaments.models import Tournament

    org = f.user("org")
    t, pair, rivals, _ = event(org, "copa", {"name": "Ana"})
    assert Tournament.objects.get(pk=t.pk).status == Tournament.Status.FINISHED
    html = Client().get(f"/jogadores/{pair.first_player.pk}/").content.decode()
    assert 'data-testid="placing"' in html and "1º lugar" in html
    html = Client().get(f"/jogadores/{rivals.first_player.pk}/").content.decode()
    assert "2º lugar" in html
    _, undecided, _, _ = event(org, "aberta", {"name": "Bia"}, decide=False)
    assert 'data-testid="placing"' not in Client().get(f"/jogadores/{undecided.first_player.pk}/").content.decode()
