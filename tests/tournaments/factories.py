"""Helpers for the tournament service and API tests: users, tournaments, pairs, and playing a
match through scoring's public services up to an official result (signed and received, art. 25)."""
from __future__ import annotations

import datetime
import itertools

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from scoring import services as scoring
from scoring.models import Match
from tournaments.models import Pair, Player, Tournament

PIN = "2468"
_counter = itertools.count(1)


def user(username: str, **extra):
    return get_user_model().objects.create_user(username, password="x", **extra)


def operator(username: str, password: str = "x", **extra):
    """A site operator that is not a superuser: an account given ``events.operate_site`` (docs/security.md)."""
    from django.contrib.auth.models import Permission

    made = get_user_model().objects.create_user(username, password=password, **extra)
    made.user_permissions.add(Permission.objects.get(codename="operate_site", content_type__app_label="events"))
    return get_user_model().objects.get(pk=made.pk)


def organizer(username: str, password: str = "x", **extra):
    """An organizer account as ``create_organizer`` makes one: it creates tournaments for a club of its own."""
    from django.contrib.auth.models import Permission

    from events import organizations

    made = get_user_model().objects.create_user(username, password=password, **extra)
    made.user_permissions.add(Permission.objects.get(codename="add_tournament", content_type__app_label="events"))
    organizations.create_organization(made, name=f"Clube de {username}")
    return get_user_model().objects.get(pk=made.pk)


def referee_of(t: Tournament, account):
    """``account`` made one of the people ``t``'s tables may be given to, as ``create_referee`` makes one: a
    referee member of its organization (its organizer's own, for a tournament made without one)."""
    from events import organizations

    organizations.enlist_referee(t.organization or organizations.home_of(t.organizer), account)
    return account


def tournament(organizer, slug: str = "copa", **extra) -> Tournament:
    extra.setdefault("date", datetime.date(2026, 5, 1))
    extra.setdefault("status", Tournament.Status.REGISTRATION)
    return Tournament.objects.create(name=slug.title(), slug=slug, organizer=organizer, **extra)


def pairs(t: Tournament, count: int, **extra) -> list[Pair]:
    """``count`` confirmed pairs "P1".."Pn" (created in that order; numbering goes on in later calls)."""
    out = []
    start = t.pairs.count()
    for i in range(start + 1, start + count + 1):
        n = next(_counter)
        a = Player.objects.create(name=f"Player {n}a")
        b = Player.objects.create(name=f"Player {n}b")
        out.append(Pair.objects.create(tournament=t, name=f"P{i}", first_player=a, second_player=b, **extra))
    return out


def seed_in_order(pairs_in_seed_order: list[Pair]) -> None:
    """Give the pairs seeds 1..n in the order listed (the organizer's seeding order)."""
    for number, pair in enumerate(pairs_in_seed_order, start=1):
        Pair.objects.filter(pk=pair.pk).update(seed=number)
        pair.seed = number


def _signer(pair: Pair) -> Player:
    player = pair.first_player
    if not player.has_pin:
        player.set_pin(PIN)
        player.save(update_fields=["pin_hash"])
    return player


def receive(match: Match, organizer) -> None:
    """The organizer receives the signed súmula: ``scoring.services.mark_received`` calls
    ``scoring.hook.result_official`` and the tournament records the result and advances."""
    scoring.mark_received(match, organizer)
    match.refresh_from_db()


def sign_and_receive(match: Match, organizer, *, receive_it: bool = True) -> Match:
    """Both pairs sign the current version, the referee countersigns, the organizer receives it."""
    match.refresh_from_db()
    scoring.sign(match, "team0", _signer(match.pair_a), pin=PIN)
    scoring.sign(match, "team1", _signer(match.pair_b), pin=PIN)
    match.refresh_from_db()
    if match.referee_id:
        scoring.countersign(match, match.referee)
    if receive_it:
        receive(match, organizer)
    match.refresh_from_db()
    return match


def play(match: Match, winner: Pair, organizer, *, loser_points: int = 0, receive_it: bool = True) -> Match:
    """Enter the hands of ``match`` so that ``winner`` wins every game 12 to ``loser_points``, have
    both pairs sign, the referee countersign, and the organizer receive it (official)."""
    match.refresh_from_db()
    team = 0 if match.pair_a_id == winner.pk else 1
    for _game in range(match.best_of // 2 + 1):
        for _ in range(loser_points):
            scoring.record_hand(match, {"winner": 1 - team, "ended_by": "tricks", "value": 1}, organizer)
        scoring.record_hand(match, {"winner": team, "ended_by": "tricks", "value": 12}, organizer)
    return sign_and_receive(match, organizer, receive_it=receive_it)


@pytest.fixture(autouse=True)
def english():
    """Messages in English (the site's default language is Portuguese). Import it into a test module."""
    with translation.override("en"):
        yield


def api_client(user=None):
    """A REST client in English (the site speaks Portuguese unless the visitor chose), logged in as ``user``."""
    from django.conf import settings
    from rest_framework.test import APIClient

    c = APIClient()
    c.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    if user is not None:
        c.force_authenticate(user)
    return c
