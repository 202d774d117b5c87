"""Fixtures of the súmula tests: an organizer, a referee, a tournament with pairs whose players
have PINs, and helpers to play hands. Import the fixtures you use: ``from .sumula_setup import *``."""
from __future__ import annotations

import datetime

import pytest
from django.contrib.auth import get_user_model

from people.models import Club
from scoring import services
from tables import links as table_links
from scoring.models import Match
from tournaments.models import Pair, Player, Round, Tournament

PINS = {"Ana Souza": "1111", "Beto Lima": "2222", "Caio Reis": "3333", "Duda Melo": "4444"}

__all__ = ["fast_password_hashing", "organizer", "referee", "outsider", "tournament", "pairs", "match",
           "match3", "other", "link", "received", "lan", "play", "three", "PINS"]


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def organizer(db):
    return get_user_model().objects.create_user("organizador", password="secret-org", first_name="Olga",
                                                last_name="Organizadora")


@pytest.fixture
def referee(db):
    return get_user_model().objects.create_user("arbitra", password="secret-ref", first_name="Carla",
                                                last_name="Árbitra")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("curioso", password="secret-out")


@pytest.fixture
def tournament(organizer):
    return Tournament.objects.create(name="Torneio de Teste", slug="torneio-de-teste", date=datetime.date(2026, 11, 21),
                                     organizer=organizer, venue="Clube")


@pytest.fixture
def pairs(tournament):
    players = {}
    club = Club.objects.create(name="Clube X")  # people.Club (the club is a row, no longer text)
    for name, pin in PINS.items():
        player = Player(name=name, club=club if name.startswith(("A", "B")) else None)
        player.set_pin(pin)
        player.save()
        players[name] = player
    extra = [Player.objects.create(name=n) for n in ("Edu Sem-Pin", "Fê Reserva", "Gil Outro", "Hugo Outro")]
    a = Pair.objects.create(tournament=tournament, name="Os Zaps", first_player=players["Ana Souza"],
                            second_player=players["Beto Lima"], substitute=extra[1])
    b = Pair.objects.create(tournament=tournament, name="Copas", first_player=players["Caio Reis"],
                            second_player=players["Duda Melo"])
    c = Pair.objects.create(tournament=tournament, name="Terceira", first_player=extra[2], second_player=extra[3])
    return a, b, c


@pytest.fixture
def match(pairs, organizer, referee, tournament):
    rnd = Round.objects.create(tournament=tournament, number=2)
    return services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, round=rnd, table=7,
                                 referee=referee, by=organizer)


@pytest.fixture
def match3(pairs, organizer, referee, tournament):
    return services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, referee=referee,
                                 best_of=3, by=organizer)


@pytest.fixture
def other(pairs, organizer, referee, tournament):
    """A second match of the tournament, at table 8."""
    return services.create_match(pair_a=pairs[0], pair_b=pairs[2], tournament=tournament, table=8, referee=referee,
                                 by=organizer)


@pytest.fixture
def link(match):
    """``match``'s table link."""
    return table_links.ensure_links([match])[match.pk]


@pytest.fixture
def received(match, referee, organizer):
    """``match`` played (12-3), signed by both pairs, countersigned and received."""
    play(match, referee, 0, 1, 0, 0, 0)  # 12-3
    services.sign(match, "team0", match.pair_a.first_player, pin=PINS["Ana Souza"])
    services.sign(match, "team1", match.pair_b.second_player, pin=PINS["Duda Melo"])
    services.countersign(match, referee)
    services.mark_received(match, organizer)
    return Match.objects.get(pk=match.pk)


@pytest.fixture
def lan(settings):
    """The organizer's computer answers on the LAN, and SITE_URL is not set."""
    settings.ALLOWED_HOSTS = ["127.0.0.2", "testserver", "clube.example"]
    settings.SITE_URL, settings.SITE_URL_SET = "http://127.0.0.1:8000", False  # SITE_URL not set


def three(winner: int) -> dict:
    return {"winner": winner, "ended_by": "tricks", "value": 3}


def play(match, by, *hands):
    """Record summaries in order; ints are shorthand for a won truco (3 points) by that team."""
    out = []
    for hand in hands:
        out.append(services.record_hand(match, three(hand) if isinstance(hand, int) else hand, by))
    return out
