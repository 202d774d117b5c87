"""The hand checker's form: a hand entered on a phone (the dealer, the vira, optionally the cards of
each seat, the plays and calls in order, what the table recorded) turned into the hand report the
rules engine reads (docs/hand-report.md). Pasted JSON stays for integrations (``referee.views``).

:func:`report_from_form` returns ``(report, None)`` or ``(None, message)``, the message naming the
form's field in the reader's language."""
from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

RANKS = ("4", "5", "6", "7", "Q", "J", "K", "A", "2", "3")
SUITS = (("ouros", "♦"), ("espadas", "♠"), ("copas", "♥"), ("paus", "♣"))
CARDS = [f"{rank}-{suit}" for suit, _symbol in SUITS for rank in RANKS]
EVENT_ROWS = 16

ACTIONS = (
    ("play", gettext_lazy("plays")),
    ("play_covered", gettext_lazy("plays face down")),
    ("call_truco", gettext_lazy("calls truco")),
    ("call_seis", gettext_lazy("calls seis")),
    ("call_nove", gettext_lazy("calls nove")),
    ("call_doze", gettext_lazy("calls doze")),
    ("accept", gettext_lazy("accepts")),
    ("run", gettext_lazy("runs")),
    ("fold", gettext_lazy("gives up the hand")),
    ("eleven_play", gettext_lazy("(mão de onze) the pair plays")),
    ("eleven_run", gettext_lazy("(mão de onze) the pair runs")),
)


def card_choices() -> list[tuple[str, str]]:
    return [(card, f"{card.split('-')[0]} {dict(SUITS)[card.split('-')[1]]} {card.split('-')[1]}") for card in CARDS]


def seat_choices(match) -> list[tuple[int, str]]:
    """Seats 0–3 named by their players: pair A sits at 0 and 2, pair B at 1 and 3."""
    a, b = match.pair_a, match.pair_b
    return [(0, a.first_player.name), (1, b.first_player.name), (2, a.second_player.name), (3, b.second_player.name)]


def _int(value: str | None) -> int | None:
    value = (value or "").strip()
    return int(value) if value.isdigit() else None


def report_from_form(data, match) -> tuple[dict | None, str | None]:
    """The hand report the form describes, or the first problem, naming its field."""
    dealer = _int(data.get("dealer"))
    if dealer not in (0, 1, 2, 3):
        return None, _("Dealer: choose who dealt the hand.")
    vira = data.get("vira", "")
    if vira not in CARDS:
        return None, _("Vira: choose the turned card.")
    score = [_int(data.get("score_a")) or 0, _int(data.get("score_b")) or 0]
    report: dict = {"dealer": dealer, "vira": vira, "score": score, "events": []}
    deal = {str(seat): [data.get(f"deal_{seat}_{i}", "") for i in range(3)] for seat in range(4)}
    given = [card for cards in deal.values() for card in cards if card]
    if given:
        if len(given) != 12 or any(card not in CARDS for card in given):
            return None, _("Cards of each player: give the three cards of every player, or none.")
        report["deal"] = deal
    seats = dict(seat_choices(match))
    for row in range(EVENT_ROWS):
        action = data.get(f"ev_action_{row}", "")
        if not action:
            continue
        seat = _int(data.get(f"ev_seat_{row}"))
        if seat not in seats:
            return None, _("Play %(row)s: choose who acted.") % {"row": row + 1}
        if action in ("play", "play_covered"):
            card = data.get(f"ev_card_{row}", "")
            if card not in CARDS:
                return None, _("Play %(row)s: choose the card played.") % {"row": row + 1}
            event = {"seat": seat, "play": card}
            if action == "play_covered":
                event["covered"] = True
        elif action.startswith("call_"):
            event = {"seat": seat, "call": action[5:]}
        elif action in ("accept", "run"):
            event = {"seat": seat, "answer": action}
        elif action == "fold":
            event = {"seat": seat, "fold": True}
        elif action in ("eleven_play", "eleven_run"):
            event = {"team": seat & 1, "eleven": action[7:]}
        else:
            return None, _("Play %(row)s: choose what happened.") % {"row": row + 1}
        report["events"].append(event)
    winner = data.get("claimed_winner", "")
    if winner in ("0", "1", "none"):
        report["claimed"] = {"winner": None if winner == "none" else int(winner),
                             "points": _int(data.get("claimed_points")) or 0}
    return report, None


def event_label(event_field: str) -> str:
    """"events[3].play" -> "Play 4" (the form's row), for the engine's messages."""
    if event_field.startswith("events[") and "]" in event_field:
        index = event_field[7:event_field.index("]")]
        if index.isdigit():
            return _("Play %(row)s") % {"row": int(index) + 1}
    return ""
