"""A W.O. is closed to entries from every link: the card of its table, the match's own link
and the QR code of its blank súmula, whichever way the W.O. came — a withdrawn pair's matches, or a round
generated with a withdrawn pair (a W.O. without a table, which never had a link nor a card). A W.O. taken
back (the pair reinstated) is to be played: its table's card opens it again, with a new link."""
from __future__ import annotations

from django.test import Client
from rest_framework.test import APIClient

from printing import jobs as printing
from tables import links as table_links
from scoring.models import HandEntry, Match
from tables.models import TableLink
from tests.tournaments import factories as f
from tournaments import services
from tables import cards as table_cards
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
    assert Client().get(f"/mesa/{link.token}/").status_code == 410    # the match's own link: a W.O.
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


def _round_with_a_generated_walkover(t, org):
    """Round 2 of a round robin generated after a pair withdrew: its match is a W.O. (art. 26) without a table."""
    pairs = f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    first = services.generate_first_round(t, org)
    for m in Match.objects.filter(round=first):
        services.set_result(m, org, winner=m.pair_a_id, games=[1, 0], reason="test")
    services.withdraw_pair(pairs[1], org, "Doente")
    second = services.generate_next_round(t, org)
    [wo] = [m for m in Match.objects.filter(round=second) if pairs[1].pk in (m.pair_a_id, m.pair_b_id)]
    return second, wo


def test_a_generated_walkovers_link_is_refused_naming_the_walkover_and_its_article(t, org):
    """The table is told the match was a W.O. (art. 26), not a generic "link not valid"."""
    from tables.models import TableLink

    _, wo = _round_with_a_generated_walkover(t, org)
    [link] = TableLink.objects.filter(match=wo)                       # the one made already closed
    assert link.revoked_at is not None and link.closed_as == "walkover"
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Table {link.token}")
    refused = api.post(f"/api/scoring/matches/{wo.pk}/hands/",
                       {"winner": 0, "ended_by": "tricks", "value": 1, "game": 1, "hand": 1}, format="json",
                       HTTP_ACCEPT_LANGUAGE="pt-br")
    assert refused.status_code in (401, 403)
    assert "W.O." in refused.json()["error"]["message"] and "art. 26" in refused.json()["error"]["message"]
    page = Client().get(f"/mesa/{link.token}/", HTTP_ACCEPT_LANGUAGE="pt-br")
    assert page.status_code == 410 and "art. 26" in page.content.decode()
    state = Client().get(f"/mesa/{link.token}/estado/")
    assert state.status_code == 410 and "art. 26" in state.json()["error"]["message"]
    assert not HandEntry.objects.filter(game__match=wo).exists()


def test_the_blank_sumula_and_the_cards_of_a_walkover_show_it_without_a_live_link(t, org):
    from printing import table_cards as scoring_cards

    second, wo = _round_with_a_generated_walkover(t, org)
    document = blank_document(wo)
    assert document["walkover"] is True and "table_path" not in document
    matches = list(Match.objects.filter(round=second).select_related("round", "tournament", "pair_a", "pair_b"))
    html = scoring_cards.cards_html(matches, "http://127.0.0.2:8140")
    assert html.count("W.O. (art. 26)") == 1 and html.count("<svg") == len(matches) - 1   # no QR code for it
    [played] = [m for m in matches if m.pk != wo.pk]
    assert blank_document(played).get("walkover") is None


def test_an_organizers_walkover_at_a_table_prints_the_table_card_with_the_walkover(t, org):
    """The table's card (whole event) keeps its QR code, for the table's next match; the W.O. is said on it."""
    from printing import table_cards as scoring_cards

    f.pairs(t, 4)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    matches = list(Match.objects.filter(round=rnd).select_related("round", "tournament", "pair_a", "pair_b"))
    wo = matches[0]
    services.record_walkover(wo, wo.pair_b_id, org, reason="Não compareceu")
    cards = table_cards.ensure_cards(t, [m.table for m in matches])
    paths = {m.pk: table_cards.card_path(cards[m.table]) for m in matches}
    html = scoring_cards.cards_html(matches, "", paths)
    assert html.count("W.O. (art. 26)") == 1 and html.count("<svg") == len(matches)
    assert "Escaneie para o próximo jogo desta mesa" in html or "Scan for the next match" in html
    link = TableLink.objects.get(match=wo)
    assert enter_hand(link.token, wo) in (401, 403)
    assert "W.O." in table_links.refusal(link.token)


def test_a_received_sumulas_link_is_refused_with_the_general_rule(t, org):
    from tables.models import TableLink as Link

    f.pairs(t, 2)
    services.configure_stage(t, org, format="round_robin")
    rnd = services.generate_first_round(t, org)
    [match] = Match.objects.filter(round=rnd)
    link = table_links.ensure_links([match])[match.pk]
    table_links.close(match, org, Link.ClosedAs.RECEIVED)
    assert table_links.walkover_ids([match.pk]) == set()
    assert "W.O." not in table_links.refusal(link.token)
    assert Client().get(f"/mesa/{link.token}/").status_code == 404
