"""The table page's claim preselects the tento in play (art. 24): 1 before any raise with the other values
the table may state (art. 11), only the hand's own 3 in a mão de onze where nobody raises (art. 18, 19), and no
claim once the match is over (art. 25)."""
from __future__ import annotations

import pytest

from referee.table_views import table_state
from scoring import services as scoring

from .rulings_setup import *  # noqa: F401,F403
from .rulings_setup import finish

pytestmark = pytest.mark.django_db


def test_the_claim_preselects_the_tento_in_play_art_24(match, referee):
    assert table_state(match)["claim"] == {"value": 1, "values": [1, 3, 6, 9, 12]}


def test_a_mao_de_onze_fixes_the_tento_in_play_art_18_19(match, referee):
    for value in (3, 3, 3, 1, 1):  # 11 to 0: the next hand is a mão de onze, worth 3
        scoring.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": value}, referee)
    assert table_state(match)["claim"] == {"value": 3, "values": [3]}


def test_no_claim_once_the_match_is_over_art_25(match, referee):
    finish(match, referee)
    assert table_state(match)["claim"] is None
