"""What higher apps add to a player's page, export and erasure, without ``people`` (or the page's
own app) importing them (docs/architecture.md, "Where players and pairs live").

- :func:`register_section`: a part of the public player page (``tournaments/player_page.py``): the
  discipline record (``referee``), the rating chart (``seasons``).
  A section is ``callable(player, person_ids, viewer) -> dict | None``: ``{"key", "title",
  "template", "context", "order"}``, or ``None`` to show nothing (e.g. the viewer may not see it).
- :func:`register_export`: a part of the player's data export (LGPD): ``callable(person_ids) ->
  (key, JSON-able value)``.
- :func:`register_eraser`: what an app does when a player's data is erased (e.g. the pair names that
  spell the player's name): ``callable(person_ids, old_names, new_name) -> None``, inside the
  erasure's transaction.

Each app registers in its ``AppConfig.ready`` with a ``key``, so a reload registers once. Keys in use:
``discipline`` (``referee``, order 50) and ``rating`` (``seasons``: the rating chart, an SVG, order 30);
kept for ``seasons`` to fill: ``circuits`` (circuit standings, order 20).
"""
from __future__ import annotations

from typing import Callable

_sections: dict[str, Callable] = {}
_exports: dict[str, Callable] = {}
_erasers: dict[str, Callable] = {}


def register_section(key: str, section: Callable) -> None:
    _sections[key] = section


def register_export(key: str, part: Callable) -> None:
    _exports[key] = part


def register_eraser(key: str, eraser: Callable) -> None:
    _erasers[key] = eraser


def sections(player, person_ids: set[int], viewer) -> list[dict]:
    """The sections this viewer sees on ``player``'s page, in their ``order``."""
    shown = [s for s in (section(player, person_ids, viewer) for section in _sections.values()) if s]
    return sorted(shown, key=lambda s: (s.get("order", 100), s["key"]))


def export_parts(person_ids: set[int]) -> dict:
    return dict(part(person_ids) for part in _exports.values())


def erase_everywhere(person_ids: set[int], old_names: set[str], new_name: str) -> None:
    for eraser in _erasers.values():
        eraser(person_ids, old_names, new_name)
