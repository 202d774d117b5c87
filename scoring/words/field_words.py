"""The words a page uses for the field a refused request names (``ServiceError.field``): messages
shown on pages say "PIN: …", never "[pin]". The API keeps the codes (``field`` in the JSON body)."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

FIELD_WORDS = {
    "pin": _("PIN"), "code": _("One-time code"), "expect": _("Hand number"), "player": _("Player"),
    "role": _("Who signs"), "status": _("Súmula status"), "match": _("Match"), "ruling": _("Ruling"),
    "changes": _("Changes"), "tournament": _("Tournament"), "table": _("Table"), "steps": _("Escalation steps"),
    "round": _("Round"), "report": _("Hand report"), "reason": _("Reason"), "points": _("Points"),
    "pair_b": _("Second pair"), "offender_seat": _("Offender"), "seat": _("Seat"), "new_points": _("New points"),
    "facts": _("Facts of the claim"), "entry": _("Entry"), "decision": _("Decision"), "best_of": _("Match format"),
    "beneficiary": _("Who scores"), "appeal": _("Appeal"), "infraction": _("Infraction"), "winner": _("Who won"),
    "value": _("Hand value"), "ended_by": _("How the hand ended"), "dealer": _("Dealer"), "first_dealer": _("Dealer"),
    "events": _("Plays and calls"), "hands": _("Cards"), "vira": _("Vira"), "claimed": _("What the table recorded"),
    "game": _("Game"), "position": _("Entry"), "name": _("Name"), "seed": _("Seed"), "rating": _("Rating"),
}


def field_word(field: str | None) -> str:
    """The page's word for a service field code ("report.events[3].card" -> "Plays and calls"), or ""."""
    if not field:
        return ""
    head = field.split(".")[0].split("[")[0]
    if head == "report" and "." in field:
        head = field.split(".")[1].split("[")[0]
    word = FIELD_WORDS.get(head)
    return str(word) if word else ""


def page_message(message: str, field: str | None = None) -> str:
    """``message`` as a page shows it: led by the field's word when there is one ("PIN: …")."""
    word = field_word(field)
    return f"{word}: {message}" if word else message
