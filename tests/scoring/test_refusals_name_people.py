"""A refusal at the súmula names the people the page knows, not seat numbers: the dealer in turn is its
player ("Ana Souza, assento 0"), with the article (art. 4: the deal passes to the right)."""
from __future__ import annotations

import pytest
from django.utils import translation

from config.errors import ServiceError
from scoring import services

from .sumula_setup import *  # noqa: F401,F403

pytestmark = pytest.mark.django_db


def test_a_report_dealt_by_the_wrong_seat_names_the_dealer_in_turn(match, referee):
    """art. 4: the first hand of the game is dealt by seat 0 (Ana Souza, of Os Zaps: the first pair's first
    player); a report of the next hand that says seat 3 is refused naming who deals it."""
    services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1}, referee)  # dealt by seat 0
    report = {"dealer": 3, "vira": "7-ouros", "score": [1, 0], "events": [{"seat": 0, "fold": True}]}
    with translation.override("pt-br"), pytest.raises(ServiceError) as refused:
        services.record_hand(match, {"report": report}, referee)
    assert refused.value.field == "report.dealer"
    assert "Caio Reis, assento 1" in str(refused.value) and "art. 4" in str(refused.value)
    with translation.override("en"), pytest.raises(ServiceError) as refused:
        services.record_hand(match, {"winner": 0, "ended_by": "tricks", "value": 1, "dealer": 2}, referee)
    assert "Caio Reis, seat 1" in str(refused.value) and "art. 4" in str(refused.value)
