"""A W.O. is closed to entries from every link (issue 20 §2): the card of its table, the match's own link
and the QR code of its blank súmula, whichever way the W.O. came — a withdrawn pair's matches, or a round
generated with a withdrawn pair (a W.O. without a table, which never had a link nor a card). A W.O. taken
back (the pair reinstated) is to be played: its table's card opens it again, with a new link."""
from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient

from scoring import printing, table_links
from scoring.models import HandEntry, Match, TableLink
from tests.tournaments import factories as f
from tournaments import services, table_cards
from tournaments.models import Result


def blank_document(match) -> dict:
    """The blank súmula as printed (its document, not a PDF): ``table_path`` is its QR code's live link."""
    [sheet] = printing.sheets_for(printing.ordered_matches([match.pk]), "blank")
    return sheet.document


def enter_hand(token: str, match) -> int:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    return api.post(f"/api/scoring/matches/{match.pk}/hands/",
                    {"winner": 0, "ended_by": "tricks", "value": 1, "game": 1, "hand": 1}, format="json").status_code


def test_a_walkover_generated_without_a_table_has_no_live_link_anywhere(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    first = services.generate_first_round(t, org)
    for m in Match.objects.filter(round=first):
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], reason="test")
    services.withdraw_pair(pairs[1], org, "Doente")
    second = services.generate_next_round(t, org)
    [wo] = [m for m in Match.objects.filter(round=second) if pairs[1].pk in (m.pair_a_id, m.pair_b_id)]
    assert wo.table is None and Result.objects.get(match=wo).kind == "walkover"
    # no active link is ever minted for it: not by a page, not by a print of its blank súmula
    assert table_links.ensure_links([wo]) == {}
    assert "table_path" not in blank_document(wo)
    assert not TableLink.objects.filter(match=wo, revoked_at__isnull=True).exists()
    # the match that is played at a table keeps its link and its QR code
    [played] = [m for m in Match.objects.filter(round=second) if m.pk != wo.pk]
    assert blank_document(played)["table_path"] == table_links.table_path(table_links.ensure_links([played])[played.pk])


def test_a_withdrawn_pairs_walkovers_close_the_link_the_card_and_the_blank_sumula(t, org):
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    [match] = [m for m in Match.objects.filter(round=rnd) if pairs[0].pk in (m.pair_a_id, m.pair_b_id)]
    link = table_links.ensure_links([match])[match.pk]               # printed on the blank súmula already
    card = table_cards.ensure_cards(t, [match.table])[match.table]
    assert Client().get(f"/mesa/{card.token}/estado/").json()["match"] == match.pk
    services.withdraw_pair(pairs[0], org, "Viajou")
    assert Client().get(f"/mesa/{link.token}/").status_code == 404    # the match's own link
    assert enter_hand(link.token, match) in (401, 403)
    assert Client().get(f"/mesa/{card.token}/estado/").json()["match"] is None   # the card: no match now
    assert "table_path" not in blank_document(match)                  # a blank súmula printed now
    assert not HandEntry.objects.filter(game__match=match).exists()
    # the pair comes back: the match is to be played, its card opens it with a new link
    services.reinstate_pair(pairs[0], org, "Voltou")
    state = Client().get(f"/mesa/{card.token}/estado/").json()
    assert state["match"] == match.pk
    new = table_links.ensure_links([match])[match.pk]
    assert new.token != link.token and enter_hand(new.token, match) == 201
    assert enter_hand(link.token, match) in (401, 403)                # the old one stays dead
