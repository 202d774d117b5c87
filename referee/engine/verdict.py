"""Reading a hand report and giving its verdict: the engine's one public entry point.

``check_report(report)`` takes a parsed JSON report (see ``docs/hand-report.md``) and
returns a JSON-ready dict. It never raises for bad input: a report that cannot be read
gets ``{"valid": False, "error": {"field", "message"}}``; a readable one gets the full
verdict, ``valid`` being False when it broke a rule (its ``violations``) or when the table's
``claimed`` result differs from the engine's.
"""
from __future__ import annotations

from .cards import CARD_LOOKUP, DECK_CARDS, card_name, parse_card
from .errors import ReportError, printable
from .game import add_points, claim_matches, game_winner, next_dealer
from .fast import clean_verdict
from .hand import HandReplay
from .messages import render
from .rules import rule_set_from

REPORT_FIELDS = frozenset({"rules", "dealer", "vira", "score", "deal", "events", "claimed", "id"})

#: Most events one hand can hold: 12 cards, a raise ladder with its answers (with repeats and
#: violations), the mão de onze decision, infractions and notes fit many times over. More is refused.
MAX_EVENTS = 64


def check_report(report: object) -> dict:
    """The verdict on one hand report (see the module docstring)."""
    if type(report) is dict:
        try:
            verdict = clean_verdict(report, MAX_EVENTS)
        except Exception:  # anything odd: the full replay below judges it and words the error
            verdict = None
        if verdict is not None:
            return verdict
    try:
        return _verdict(report)
    except ReportError as error:
        return _error_verdict(report, error.as_dict())
    except RecursionError:
        return _error_verdict(report, ReportError("", "report.nested").as_dict())
    except Exception as error:  # a bug of the engine: still an answer, never a traceback for the table
        return _error_verdict(report, {**ReportError("", "report.internal", {"error": type(error).__name__}).as_dict(),
                                       "internal": True})


def _error_verdict(report: object, error: dict) -> dict:
    error = {key: printable(value) if type(value) is str else value for key, value in error.items()}
    verdict = {"valid": False, "error": error}
    if type(report) is dict and "id" in report:
        verdict["id"] = printable(report["id"])
    return verdict


def _verdict(report: object) -> dict:
    if type(report) is not dict:
        raise ReportError("", "report.not_object")
    unknown = report.keys() - REPORT_FIELDS
    if unknown:
        raise ReportError(sorted(unknown)[0], "report.unknown_field", {"fields": ", ".join(sorted(REPORT_FIELDS))})
    rules = rule_set_from(report.get("rules"))
    dealer = report.get("dealer")
    if type(dealer) is not int or not 0 <= dealer <= 3:
        raise ReportError("dealer", "report.dealer")
    if "vira" not in report:
        raise ReportError("vira", "report.vira")
    deck = DECK_CARDS[rules.deck]
    vira = parse_card(report["vira"], "vira")
    if vira not in deck:
        raise ReportError("vira", "card.not_in_deck", {"card": card_name(vira), "deck": rules.deck})
    score = _score(report.get("score", [0, 0]))
    deal = _deal(report.get("deal"), vira, deck)
    events = report.get("events")
    if type(events) is not list:
        raise ReportError("events", "report.events")
    if len(events) > MAX_EVENTS:
        raise ReportError("events", "report.too_many_events", {"count": len(events), "max": MAX_EVENTS})
    out = HandReplay(rules, dealer, vira, score, deal).run(events)
    score_after = add_points(score, out.winner, out.points, rules)
    for tento in out.tentos:  # tentos claimed after the hand (house rules ex. 1-3)
        score_after = add_points(score_after, tento["team"], tento["points"], rules)
    violations = out.violations
    verdict = {
        "valid": not violations,
        "rules": rules.as_dict(),
        "winner": out.winner,
        "points": out.points,
        "hand_value": out.value,
        "score_before": list(score),
        "score_after": list(score_after),
        "tricks": out.tricks,
        "ended_by": out.ended_by,
        "game_winner": game_winner(score_after),
        "next_dealer": next_dealer(dealer),
        "violations": violations,
    }
    if out.notes:
        verdict["notes"] = out.notes
    if out.tentos:
        verdict["tentos"] = out.tentos
    if out.match_loser is not None:  # raise_in_eleven: "art19_match" (art. 19, "a partida" as the match)
        verdict["match_loser"] = out.match_loser
    if "claimed" in report:
        matches = claim_matches(report["claimed"], out.winner, out.points)
        verdict["claim_matches"] = matches
        if not matches:
            claimed = report["claimed"]
            claimed_winner, claimed_points = claimed.get("winner"), claimed.get("points", 0)
            params = {
                "claimed_team": claimed_winner, "claimed_points": claimed_points, "team": out.winner, "points": out.points,
                "claimed": {"key": "claim.nobody", "params": {}} if claimed_winner is None else
                {"key": "claim.team", "params": {"team": claimed_winner, "points": claimed_points}},
                "actual": {"key": "actual.nobody", "params": {}} if out.winner is None else
                {"key": "actual.team", "params": {"team": out.winner, "points": out.points}},
            }
            violations.append({"code": "claim_mismatch", "article": "art. 25", "event": None,
                               "message": render("claim_mismatch", params), "key": "claim_mismatch", "params": params})
            verdict["valid"] = False
    if "id" in report:
        verdict["id"] = printable(report["id"])
    return verdict


def _score(value: object) -> tuple[int, int]:
    if type(value) is list and len(value) == 2:
        a, b = value
        if type(a) is int and type(b) is int and 0 <= a < 12 and 0 <= b < 12:
            return a, b
        if type(a) is int and type(b) is int and a >= 0 and b >= 0:
            raise ReportError("score", "report.score_over", {"a": a, "b": b})
    raise ReportError("score", "report.score")


def _deal(value: object, vira: int, deck: frozenset[int]) -> dict[int, list[int]] | None:
    if value is None:
        return None
    if type(value) is not dict:
        raise ReportError("deal", "deal.not_object")
    deal: dict[int, list[int]] = {}
    for key, cards in value.items():
        seat = _SEATS.get(key)
        if seat is None:
            raise ReportError(f"deal.{key}", "deal.seats")
        if type(cards) is not list:
            raise ReportError(f"deal.{key}", "deal.list")
        try:
            deal[seat] = [CARD_LOOKUP[text] for text in cards]
        except (KeyError, TypeError):
            deal[seat] = [parse_card(text, f"deal.{key}[{i}]") for i, text in enumerate(cards)]
    dealt = [card for cards in deal.values() for card in cards]
    if len(set(dealt)) != len(dealt) or vira in dealt or not deck.issuperset(dealt):
        _deal_error(deal, vira, deck)
    if len(deal) != 4:
        missing = sorted({0, 1, 2, 3} - deal.keys())
        raise ReportError("deal", "deal.missing", {"seats": ", ".join(map(str, missing))})
    return deal


_SEATS = {"0": 0, "1": 1, "2": 2, "3": 3}


def _deal_error(deal: dict[int, list[int]], vira: int, deck: frozenset[int]) -> None:
    seen = {vira}
    for seat, cards in deal.items():
        for i, card in enumerate(cards):
            if card not in deck:
                raise ReportError(f"deal.{seat}[{i}]", "deal.not_in_deck", {"card": card_name(card)})
            if card in seen:
                raise ReportError(f"deal.{seat}[{i}]", "deal.twice", {"card": card_name(card)})
            seen.add(card)
