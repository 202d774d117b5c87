"""Fixtures of the rulings tests: the súmula fixtures (an organizer, the match's referee, an outsider
who referees elsewhere, a tournament whose pairs' players have PINs) and a few helpers."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from scoring import services as scoring
from scoring.content import sumula_document
from tests.scoring.sumula_setup import *  # noqa: F401,F403
from tests.scoring.sumula_setup import PINS, three  # noqa: F401

__all__ = ["fast_password_hashing", "organizer", "referee", "outsider", "tournament", "pairs", "match",
           "match3", "PINS", "three", "other_referee", "penalties", "players", "finish", "sign_both"]


@pytest.fixture
def other_referee(db):
    """A referee of another table."""
    return get_user_model().objects.create_user("outro-arbitro", password="x")


@pytest.fixture
def players(pairs):
    a, b, c = pairs
    return {"a": a.first_player, "a2": a.second_player, "b": b.first_player, "c": c.first_player}


def penalties(match) -> list[dict]:
    """The penalty entries of the súmula document, every game."""
    return [e for g in sumula_document(match)["games"] for e in g["entries"] if e["kind"] == "penalty"]


def finish(match, by, team: int = 0) -> None:
    """Play hands of 3 for ``team`` until the match is decided."""
    match.refresh_from_db()
    while match.winner is None:
        scoring.record_hand(match, three(team), by)
        match.refresh_from_db()


def sign_both(match) -> None:
    a, b = match.pair_a, match.pair_b
    scoring.sign(match, "team0", a.first_player, pin=PINS[a.first_player.name])
    scoring.sign(match, "team1", b.first_player, pin=PINS[b.first_player.name])
