"""The number people call a match by ("Jogo 5"), which the tournament decides (a bracket numbers
its matches column by column). Scoring knows nothing of brackets, so the tournaments app registers
a provider at start-up (``register``); without one, or for a friendly, a match has no such number
and the pages show its table instead."""
from __future__ import annotations

from collections.abc import Callable, Iterable

_provider: Callable[[list], dict[int, int]] | None = None


def register(provider: Callable[[list], dict[int, int]]) -> None:
    """``provider(matches)`` returns ``{match pk: number}`` for the matches that have one."""
    global _provider
    _provider = provider


def numbers_for(matches: Iterable) -> dict[int, int]:
    matches = [m for m in matches if getattr(m, "tournament_id", None)]
    if _provider is None or not matches:
        return {}
    return _provider(matches)


def number_of(match) -> int | None:
    """The match's number, cached on the instance (``match._display_number``)."""
    if not hasattr(match, "_display_number"):
        match._display_number = numbers_for([match]).get(match.pk)
    return match._display_number
