"""The room sits above tournaments (docs/architecture.md) and plugs into the layers below by explicit
registrations (``room.hooks``, from ``RoomConfig.ready``); these say each one is in place."""
from __future__ import annotations

from room import hooks
from room.services import time_limit
from scoring import hook
from teams.services.results import follow_results as team_matches
from public import freshness
from tournaments import room_hooks
from tournaments.services import after_results


def test_after_a_decision_the_team_matches_then_the_room():
    """A negra takes table 1's physical table (``teams.services.matches.create_decider``) before the room
    calls a ready match to a free table; live pages and ratings follow both (``results_changed``)."""
    followers = after_results._followers
    assert team_matches in followers and hooks.follow_results in followers
    assert followers.index(team_matches) < followers.index(hooks.follow_results)


def test_scoring_tells_the_room_that_a_match_started():
    assert hook.registered().match_started is time_limit.match_started


def test_tournaments_asks_the_room_through_the_one_it_registered():
    assert isinstance(room_hooks.room(), hooks.TournamentsRoom)
    assert "room" in freshness.SOURCES  # the room's options move the live pages' marker
