"""What holds a súmula: an open dispute of one of its entries.

Art. 25: the súmula is signed by both pairs and handed to the organizing table. A pair that disputes
an entry has not agreed to it, so while the dispute is open nobody signs (the pairs, the referee's
countersignature) and the organizer does not receive the súmula; the referee settles it first (the
entry confirmed, or the súmula corrected with a reason), and the settling is recorded in the match's
audit trail (``MatchEvent`` kinds ``dispute`` and ``dispute_resolved``).

The disputes themselves are the referee's calls (``referee.calls``, a layer above, which scoring does
not import: docs/architecture.md). That app registers a :data:`Provider` here when it starts
(``RefereeConfig.ready``); scoring asks :func:`open_holds` inside the transaction that locked the
match, and the dispute is opened under the same lock, so a signature and a dispute never cross.

This module owns: the :class:`Hold` a provider returns, the registry, the refusal
(:func:`refuse_if_held`, 409 naming the dispute, field ``dispute``) and the audit events
(:func:`record_opened`, :func:`record_resolved`).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from config.errors import Conflict

from .models import Match, MatchEvent


@dataclass(frozen=True)
class Hold:
    """One open dispute of an entry: ``game`` and ``hand`` name it; ``resolve_url`` is where the
    referee's form settles it ("" if none)."""

    id: int
    game: int
    hand: int
    team: int | None = None
    reason: str = ""
    opened_at: str = ""
    resolve_url: str = ""

    @property
    def message(self) -> str:
        return _("Hand %(hand)s of game %(game)s is disputed: the referee confirms or corrects it before "
                 "the súmula is signed or received (art. 25: both pairs sign what they agree on).") % {
            "hand": self.hand, "game": self.game}

    def as_data(self) -> dict:
        return {**asdict(self), "message": self.message}


Provider = Callable[[Match], list[Hold]]
_providers: list[Provider] = []


def register(provider: Provider) -> None:
    """Add a source of holds (once; an app's ``ready`` may run twice in tests)."""
    if provider not in _providers:
        _providers.append(provider)


def open_holds(match: Match) -> list[Hold]:
    """The match's open holds, by game and hand."""
    holds = [hold for provider in _providers for hold in provider(match)]
    return sorted(holds, key=lambda h: (h.game, h.hand, h.id))


def refuse_if_held(match: Match) -> None:
    """409 naming the first open dispute (field ``dispute``); called with the match locked."""
    holds = open_holds(match)
    if holds:
        more = len(holds) - 1
        message = holds[0].message
        if more:
            message += " " + ngettext("(%(n)s more dispute open.)", "(%(n)s more disputes open.)", more) % {"n": more}
        raise Conflict(message, "dispute")


def record_opened(match: Match, by, hold: Hold) -> None:
    """The audit trail's record of a dispute opened by the table (or a referee, the organizer)."""
    from .services.base import _event

    _event(match, MatchEvent.Kind.DISPUTE, by, dispute=hold.id, game=hold.game, hand=hold.hand, team=hold.team,
           reason=hold.reason)  # the author (a user, or ``via`` the table link): event_row's


def record_resolved(match: Match, by, hold: Hold, resolution: str) -> None:
    """The audit trail's record of the referee's settling: ``confirmed`` or ``corrected`` (with the
    version current then)."""
    from .services.base import _event
    from .services.versions import current_version

    version = current_version(match)
    _event(match, MatchEvent.Kind.DISPUTE_RESOLVED, by, dispute=hold.id, game=hold.game, hand=hold.hand,
           resolution=resolution, version=version.number if version else None)
