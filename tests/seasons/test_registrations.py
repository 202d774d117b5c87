"""How the seasons app hears what tournaments does without tournaments importing it
(docs/architecture.md): the ratings are the last follower of every decision on results, and the
rest goes through ``tournaments.services.season_hooks``, which does nothing when no season is there."""
from __future__ import annotations

import pytest

from seasons import followers, ranking_checks
from seasons.services import circuits, ratings
from tournaments.services import after_results, season_hooks


def test_the_ratings_follow_every_decision_last():
    assert followers.follow_results in after_results._last_followers
    assert followers.follow_results not in after_results._followers


def test_the_season_registers_every_hook():
    assert season_hooks._hooks == {
        "placings_changed": circuits.refresh_stage_placings,
        "rating_order_changed": followers.rating_order_changed,
        "players_merged": followers.players_merged,
        "pair_ratings": ratings.pair_ratings,
        "player_ratings": ratings.current_ratings,
        "derived_problems": ranking_checks.derived_problems,
    }


def test_an_unknown_hook_is_refused():
    with pytest.raises(TypeError, match="unknown hook"):
        season_hooks.register(placing_changed=lambda tournament: None)


def test_without_a_season_tournaments_asks_nothing_and_nobody_is_rated(monkeypatch):
    monkeypatch.setattr(season_hooks, "_hooks", {})
    season_hooks.placings_changed(object())
    season_hooks.rating_order_changed([1, 2], tournaments=[3])
    season_hooks.players_merged(object())
    assert season_hooks.pair_ratings([object()]) == {}
    assert season_hooks.player_ratings([1, 2]) == {}
    assert season_hooks.derived_problems(None, print) == []
