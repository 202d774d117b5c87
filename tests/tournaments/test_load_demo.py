"""``manage.py load_demo``: what it creates, that the bracket advanced from real súmulas, and that a
second run changes nothing.

The demo is loaded once for the class (``setUpTestData``); each test rolls back what it changes."""
import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management import call_command
from django.test import TestCase, override_settings

from scoring import services as scoring
from scoring.display import verification
from scoring.models import Game, HandEntry, Match, MatchEvent, Signature, SigningCode, SumulaVersion
from tournaments import services
from tournaments.management.commands.load_demo import DRAW_SEED, PAIRS
from draw.models.stages import stage_in_play
from tournaments.models import (
    AuditEntry, BracketNode, Bye, CheckIn, GroupMember, Pair, Player, Result, Round, Stage, TableAssignment, Tournament,
)

MODELS = [Tournament, Player, Pair, Stage, Round, GroupMember, BracketNode, Bye, CheckIn, TableAssignment, Result,
          AuditEntry, Match, Game, HandEntry, SumulaVersion, Signature, SigningCode, MatchEvent]
FAST_HASHER = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def run_load_demo() -> str:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    return out.getvalue()


def snapshot() -> str:
    objects = list(get_user_model().objects.order_by("pk"))
    for model in MODELS:
        objects.extend(model.objects.order_by("pk"))
    return serializers.serialize("json", objects)


def counts() -> dict:
    return {model.__name__: model.objects.count() for model in [get_user_model(), *MODELS]}


def quarterfinals(tournament) -> list[BracketNode]:
    return list(BracketNode.objects.filter(stage__tournament=tournament, section="winners", bracket_round=1)
                .select_related("match").order_by("position"))


# one process loads the demo once for the whole class: dealt out test by test, each of pytest-xdist's processes
# loaded it again (about 45 s of a process on PostgreSQL, each)
@pytest.mark.xdist_group("the-demo")
@override_settings(PASSWORD_HASHERS=FAST_HASHER)
class TheDemo(TestCase):
    @classmethod
    def setUpTestData(cls):
        cls.output = run_load_demo()

    def setUp(self):
        self.tournament = Tournament.objects.get(slug="torneio-de-demonstracao")
        self.league = Tournament.objects.get(slug="torneio-de-pontos-corridos")

    def test_users_and_the_bracket_tournament(self):
        organizer = get_user_model().objects.get(username="organizador")
        assert organizer.check_password("truco-demo")
        assert not organizer.is_staff  # an organizer as create_organizer makes one: its club's, not the site's
        assert organizer.has_perm("events.add_tournament")
        assert self.tournament.organization.members.filter(user=organizer, role="admin").exists()
        referee = get_user_model().objects.get(username="arbitro")
        assert referee.check_password("truco-demo")
        assert not referee.is_staff and not referee.is_superuser

        tournament = self.tournament
        assert tournament.name == "Torneio de Demonstração"
        assert tournament.organizer == organizer
        assert tournament.rule_set == {"preset": "regulamento-tecnico", "options": {}}
        assert tournament.best_of == 1
        assert tournament.status == Tournament.Status.IN_PROGRESS
        assert tournament.pairs.count() == 8
        assert tournament.pairs.exclude(substitute=None).count() == 3
        stage = stage_in_play(tournament)
        assert (stage.format, stage.seeding, stage.third_place) == ("single_elimination", "lot", True)
        assert stage.lot_seed == DRAW_SEED == Round.objects.get(tournament=tournament, number=1).lot_seed
        assert {m.referee for m in Match.objects.filter(tournament=tournament)} == {referee}
        assert Player.objects.count() == 19 + 12
        assert not Player.objects.filter(pin_hash="").exists()
        assert Player.objects.get(name="Maria Aparecida Santos").check_pin("1234")

        for text in ("organizador / truco-demo", "arbitro / truco-demo", "PIN: 1234", "/entrar/",
                     "/torneios/torneio-de-demonstracao/chave/", "/sumulas/partida/", "/sumulas/verificar/"):
            assert text in self.output

    def test_the_bracket_advanced_from_the_official_results(self):
        nodes = quarterfinals(self.tournament)
        results = [Result.objects.filter(match=node.match).first() for node in nodes]
        assert [r.kind if r else None for r in results] == ["sumula", "sumula", "walkover", None]
        first, second, walkover = results[:3]
        assert first.winner_id == first.pair_a_id and (first.points_a, first.points_b) == (12, 7)
        assert second.winner_id == second.pair_b_id and (second.points_a, second.points_b) == (9, 12)
        assert walkover.absent_id == walkover.pair_b_id

        semifinals = list(BracketNode.objects.filter(stage__tournament=self.tournament, section="winners",
                                                     bracket_round=2).select_related("match").order_by("position"))
        assert (semifinals[0].top_pair_id, semifinals[0].bottom_pair_id) == (first.winner_id, second.winner_id)
        semifinal = semifinals[0].match
        assert semifinal.status == Match.Status.OPEN and semifinal.referee.username == "arbitro"
        assert (semifinal.pair_a_id, semifinal.pair_b_id) == (first.winner_id, second.winner_id)
        assert walkover.winner_id in (semifinals[1].top_pair_id, semifinals[1].bottom_pair_id)
        assert semifinals[1].match is None  # waits for the match in progress

    def test_the_received_sumulas_verify(self):
        received = list(Match.objects.filter(status=Match.Status.RECEIVED).order_by("pk"))
        assert [m.tournament for m in received] == [self.tournament] * 2 + [self.league] * 3

        for match in received:
            version = scoring.current_version(match)
            assert version.number == 1
            assert scoring.official_result(match)["digest"] == version.digest
            checked = verification(version.digest)
            assert checked["intact"] and checked["is_current"] and checked["is_official"]
            methods = dict(version.signatures.values_list("role", "method"))
            expected = "pin" if match.tournament == self.tournament else "code"
            assert methods == {"team0": expected, "team1": expected, "referee": "session"}
        response = self.client.get(f"/sumulas/verificar/{scoring.current_version(received[0]).digest}/")
        assert response.status_code == 200
        assert received[0].pair_a.name in response.content.decode()

    def test_the_referee_logs_in_and_opens_the_match_in_progress(self):
        match = quarterfinals(self.tournament)[3].match
        assert match.status == Match.Status.OPEN and match.winner is None
        game = match.games.get()
        assert HandEntry.objects.filter(game=game).count() == 5
        assert (game.score_a, game.score_b) == (7, 4)

        response = self.client.post("/entrar/", {"username": "arbitro", "password": "truco-demo"})
        assert response.status_code == 302
        response = self.client.get(f"/sumulas/partida/{match.pk}/")
        assert response.status_code == 200
        html = response.content.decode()
        assert match.pair_a.name in html and match.pair_b.name in html

    def test_the_round_robin_has_standings_after_one_round(self):
        assert stage_in_play(self.league).format == "round_robin"
        table = services.standings(self.league)
        assert len(table.rows) == 6
        assert sorted(row.won for row in table.rows) == [0, 0, 0, 1, 1, 1]
        second = Round.objects.get(tournament=self.league, number=2)
        assert second.is_generated
        assert Match.objects.filter(round=second, status=Match.Status.OPEN).count() == 3
        for page in ("classificacao/", "grupos/", "rodadas/"):
            assert self.client.get(f"/torneios/torneio-de-pontos-corridos/{page}").status_code == 200
        assert self.client.get("/torneios/torneio-de-demonstracao/chave/").status_code == 200

    def test_second_run_changes_nothing(self):
        before, numbers = snapshot(), counts()

        output = run_load_demo()

        assert snapshot() == before
        assert counts() == numbers
        assert "nothing changed" in output
        assert "organizador / truco-demo" in output

    def test_leaves_a_visitors_entries_alone(self):
        match = quarterfinals(self.tournament)[3].match
        scoring.undo_last(match, get_user_model().objects.get(username="arbitro"))
        before = snapshot()

        assert "nothing changed" in run_load_demo()
        assert snapshot() == before
        assert HandEntry.objects.filter(game__match=match).count() == 4

    def test_organizer_runs_the_demo_from_its_pages_not_the_admin(self):
        """An organizer runs its club's events from the site's pages; Django's admin is the operators'
        (docs/security.md, "Many clubs on one site")."""
        assert self.client.login(username="organizador", password="truco-demo")
        assert self.client.get("/admin/events/tournament/").status_code == 302  # to the admin's own login
        dashboard = self.client.get(f"/torneios/{self.tournament.slug}/painel/")
        assert dashboard.status_code == 200 and "Torneio de Demonstração" in dashboard.content.decode()


@pytest.mark.django_db
def test_completes_a_demo_made_by_an_earlier_version(load_demo):
    """The earlier demo: the organizer and the tournament (best of 3, in two weeks) with its 8 pairs."""
    from tests.tournaments.factories import organizer as make_organizer

    organizer = make_organizer("organizador", password="truco-demo")
    tournament = services.create_tournament(organizer, name="Torneio de Demonstração",
                                            date=datetime.date.today() + datetime.timedelta(days=14),
                                            status="registration", best_of=3)

    def player(spec):
        return {"name": spec[0], "nickname": spec[1], "club": spec[2]}

    for name, first, second, substitute in PAIRS:
        services.register_pair(tournament, organizer, name=name, first_player=player(first),
                               second_player=player(second), substitute=player(substitute) if substitute else None)

    output = load_demo()

    tournament.refresh_from_db()
    assert "step(s) done" in output
    assert (tournament.best_of, tournament.date) == (1, datetime.date.today())
    assert Player.objects.count() == 19 + 12  # the pairs' players were kept
    assert Result.objects.filter(tournament=tournament).count() == 3
    assert "nothing changed" in load_demo()
