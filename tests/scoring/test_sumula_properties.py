"""Properties of the súmula over random legal matches (Hypothesis): every hand the engine allows is
recorded, games end at 12, the match at ceil(best_of/2) games, undo restores the previous document
exactly, and the issued version's digest is the contract's."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from referee.engine.summary import allowed_values
from scoring import services
from scoring.content import digest, load_games, sumula_document
from scoring.models import Match

from .sumula_setup import *  # noqa: F401,F403

ENDINGS = ("tricks", "run", "eleven_refused", "all_tied", "deal_lost")


def legal_entry(data, match):
    games = load_games(match)
    state = services.entry_state(match, games)
    rules = services.rules_of(match)
    score = tuple(state["score"])
    choices = [(e, v) for e in ENDINGS for v in allowed_values(rules, score, e)]
    ending, value = data.draw(st.sampled_from(choices))
    if ending == "eleven_refused":
        winner = 1 if score[0] == 11 else 0
    elif ending == "deal_lost" or (ending == "all_tied" and value == 0):
        winner = None
    else:
        winner = data.draw(st.sampled_from([0, 1]))
    return {"winner": winner, "ended_by": ending, "value": value}


def play_random_match(data, best_of):
    import datetime

    from django.contrib.auth import get_user_model

    from tournaments.models import Pair, Player, Tournament

    organizer = get_user_model().objects.create(username="org")
    tournament = Tournament.objects.create(name="T", slug="t", organizer=organizer, date=datetime.date(2026, 1, 1),
                                           best_of=best_of)
    p = [Player.objects.create(name=f"P{i}") for i in range(4)]
    a = Pair.objects.create(tournament=tournament, name="A", first_player=p[0], second_player=p[1])
    b = Pair.objects.create(tournament=tournament, name="B", first_player=p[2], second_player=p[3])
    match = services.create_match(pair_a=a, pair_b=b, tournament=tournament, by=organizer)
    for _ in range(400):
        match = Match.objects.get(pk=match.pk)
        if match.winner is not None:
            break
        before = sumula_document(match)
        entry = legal_entry(data, match)
        if data.draw(st.integers(0, 9), label="undo first") == 0:
            versions = match.versions.count()
            services.record_hand(match, entry, organizer)
            services.undo_last(match, organizer)
            after = sumula_document(match)
            if match.versions.count() == versions:
                assert after == before  # undo restores the document exactly
            else:  # the undone hand had ended the match: its version stays, the draft is the next one
                assert after["match"]["version"] == before["match"]["version"] + 1
                assert (after["games"], after["result"]) == (before["games"], before["result"])
        services.record_hand(match, entry, organizer)
    match = Match.objects.get(pk=match.pk)
    assert match.winner is not None
    assert max(match.games_a, match.games_b) == best_of // 2 + 1
    version = match.versions.order_by("-number").first()
    doc = version.content
    assert doc["digest"] == digest(doc) == version.digest
    for game in doc["games"]:
        assert max(game["score"]) == 12 and game["winner"] == game["score"].index(12)
        running = [0, 0]
        for entry in game["entries"]:
            if entry["kind"] == "hand" and entry["winner"] is not None:
                running[entry["winner"]] = min(12, running[entry["winner"]] + entry["points"])
            assert entry["score"] == running


@pytest.mark.django_db
@settings(max_examples=12, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data(), best_of=st.sampled_from([1, 3]))
def test_random_legal_matches(data, best_of):
    from django.db import transaction

    with transaction.atomic():  # every example starts from an empty database
        play_random_match(data, best_of)
        transaction.set_rollback(True)
