"""Table tokens are never stored in clear (``tables.token_keys``): a table link's and a table card's row
holds the token's keyed digest and its sealed text, neither of which opens a table; a card printed again
carries the same token; a card printed before a ``SECRET_KEY`` rotation still opens while the old key is a
fallback; a reissue revokes the old token everywhere (page, state, API). The rows of a site upgraded from
clear tokens: tests/draw/test_migration_move.py (the card printed before still opens)."""
from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from tables import cards as table_cards
from tables import links as table_links
from tables import token_keys
from tables.models import TableCard, TableLink

from tests.scoring.sumula_setup import *  # noqa: F401,F403


def raw_rows(table: str) -> list[tuple]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
        return cursor.fetchall()


def opens(token: str) -> bool:
    return Client().get(f"/mesa/{token}/estado/").status_code == 200


def api_opens(token: str, match) -> bool:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return api.get(f"/api/scoring/matches/{match.pk}/").status_code == 200


def test_a_row_and_a_dump_hold_no_token_that_opens_a_table(match, link, tournament):
    card = table_cards.ensure_cards(tournament, [7])[7]
    assert opens(link.token) and opens(card.token) and api_opens(link.token, match)
    for table, token in (("scoring_tablelink", link.token), ("tournaments_tablecard", card.token)):
        values = [str(value) for row in raw_rows(table) for value in row if value is not None]
        assert not any(token in value for value in values), table
        for value in values:  # not the digest, not the sealed text, nor any other column
            if 20 <= len(value) <= 255 and "/" not in value:
                assert table_links.resolve(value) is None and table_cards.resolve(value) is None
    dump = io.StringIO()
    call_command("dumpdata", "tables", stdout=dump)
    assert link.token not in dump.getvalue() and card.token not in dump.getvalue()
    row = TableLink.objects.get(pk=link.pk)
    assert len(row.digest) == 64 and row.digest == token_keys.digest(link.token) and link.token not in row.sealed


def test_a_card_printed_again_carries_the_same_token(match, link, tournament):
    card = table_cards.ensure_cards(tournament, [7])[7]
    again_link = TableLink.objects.get(pk=link.pk)
    again_card = table_cards.ensure_cards(tournament, [7])[7]
    assert again_link.token == link.token and table_links.table_path(again_link) == table_links.table_path(link)
    assert again_card.pk == card.pk and again_card.token == card.token
    assert table_links.resolve(link.token) == link and table_cards.resolve(card.token) == card


def test_a_card_printed_before_a_key_rotation_still_opens(match, link, tournament, settings):
    card = table_cards.ensure_cards(tournament, [7])[7]
    old = settings.SECRET_KEY
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a-new-secret-key-" + "x" * 40, [old]
    assert opens(link.token) and opens(card.token) and api_opens(link.token, match)
    assert TableLink.objects.get(pk=link.pk).token == link.token  # reprinted by the old key that sealed it
    fresh = table_links.reissue(match, match.tournament.organizer)
    assert opens(fresh.token) and TableLink.objects.get(pk=fresh.pk).digest == token_keys.digest(fresh.token)
    settings.SECRET_KEY_FALLBACKS = []  # the old key dropped: its cards stop, and never read by a wrong key
    assert not opens(card.token)
    with pytest.raises(token_keys.TokenUnreadable):
        assert TableCard.objects.get(pk=card.pk).token


def test_a_reissue_revokes_the_old_token_everywhere(match, link, tournament, organizer):
    card = table_cards.ensure_cards(tournament, [7])[7]
    new_link = table_links.reissue(match, organizer)
    new_card = table_cards.reissue(tournament, 7, organizer)
    assert new_link.token != link.token and new_card.token != card.token
    for token in (link.token, card.token):
        assert not opens(token)
        assert table_links.resolve(token) is None and table_cards.resolve(token) is None
    assert not api_opens(link.token, match)
    assert opens(new_link.token) and opens(new_card.token) and api_opens(new_link.token, match)
    assert TableLink.objects.get(pk=link.pk).revoked_at is not None


def test_a_token_is_found_by_its_digest_only(match, link):
    assert table_links.resolve(link.token[:-1] + ("A" if link.token[-1] != "A" else "B")) is None
    assert table_links.resolve(token_keys.digest(link.token)) is None
    assert table_links.resolve("") is None and table_links.resolve("x" * 65) is None
    assert table_links.resolve(link.token) == link
