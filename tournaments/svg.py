"""Bracket drawings: a single- or double-elimination bracket as one standalone SVG string.

This module owns the picture of a bracket and nothing else. It is pure (no Django, no
database): it is given the bracket structure of :mod:`draw.pairing.elimination`
(rounds of matches with two slots, later slots naming the match they come from), the
display name of each pair, what to print for the matches that have an official result
(:class:`MatchDisplay`), and the words to use (:class:`Labels`, English by default; pages
pass translated ones). It returns SVG markup that can be inlined in a page or served as
``image/svg+xml``.

Layout:

* rounds are columns, matches are boxes with one row per pair (seed, name, score); the
  winner's row is highlighted and the loser's greyed once a result is in;
* every match that is really played gets a number (:func:`match_numbers`), shown at the
  box's left, so a slot not known yet reads "Winner of 5" or "Loser of 9" (the number of
  the match that really decides it, past any bye);
* byes are drawn as a slot marked "bye", and matches the draw makes byes (first round, and
  their echo in the losers' bracket) as dashed boxes without a number;
* lines join a match to the match its winner goes to inside the same section (winners'
  bracket, losers' bracket) and to the grand final; losers dropping into the losers'
  bracket are named in their slot instead of drawn, which keeps big brackets readable;
* double elimination: the winners' bracket on top, the losers' bracket below it, the
  grand final (and its reset) to the right of both; single elimination: the optional
  third-place match under the final, and the matches for places 5 to 8 as their own section
  under the bracket (their semifinals in the semifinals' column, the 5th- and 7th-place
  matches in the final's);
* the champion, when known, in a box at the far right.

Sizes are fixed in pixels (the SVG carries ``width``/``height`` and a ``viewBox``): a
64-pair single-elimination bracket is about 1.5k × 2k px, so pages put the drawing in a
horizontally scrolling box on phones instead of shrinking names to illegibility.

Every text (names, labels, links) is escaped; characters that XML forbids are dropped;
long names are shortened with an ellipsis, the full name kept in a ``<title>`` tooltip.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from html import escape

from .bracket_words import (ENGLISH, BracketStructure, Labels, MatchDisplay, bracket_structure, match_numbers,
                            match_title, pending_text, round_title)
from draw.pairing.elimination import BracketMatch, EliminationBracket, Section, Slot

__all__ = ["Labels", "MatchDisplay", "bracket_structure", "bracket_svg", "match_numbers", "match_title", "pending_text",
           "round_title"]

# Geometry (px).
MARGIN = 12
BOX_W = 204
ROW_H = 22
BOX_H = 2 * ROW_H
NUM_W = 24  # left strip with the match number
SCORE_W = 32  # right strip with the score
NAME_W = BOX_W - NUM_W - SCORE_W - 9  # the name area, after its left padding
GAP_Y = 14
UNIT = BOX_H + GAP_Y  # vertical pitch of a first-round match
COL_GAP = 34
COL_W = BOX_W + COL_GAP
SECTION_TITLE_H = 26
ROUND_TITLE_H = 22
SECTION_GAP = 30
NAME_CHARS = 20  # about what fits in the name area at 12.5 px

_XML_FORBIDDEN = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: object) -> str:
    return _XML_FORBIDDEN.sub("", str(text))


def _esc(text: object) -> str:
    return escape(_clean(text), quote=True)


def _short(text: str, limit: int = NAME_CHARS) -> str:
    text = " ".join(_clean(text).split())
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


class _Canvas:
    def __init__(self) -> None:
        self.back: list[str] = []  # lines, drawn under the boxes
        self.front: list[str] = []
        self.width = 0.0
        self.height = 0.0

    def grow(self, x: float, y: float) -> None:
        self.width = max(self.width, x)
        self.height = max(self.height, y)

    def text(self, x: float, y: float, text: str, cls: str, anchor: str = "start") -> None:
        anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
        self.front.append(f'<text x="{x:g}" y="{y:g}" class="{cls}"{anchor_attr}>{_esc(text)}</text>')


def bracket_svg(
    bracket: EliminationBracket,
    names: Mapping[Hashable, str],
    displays: Mapping[str, MatchDisplay] | None = None,
    *,
    labels: Labels = ENGLISH,
    dom_id: str = "bracket",
) -> str:
    """The SVG drawing of ``bracket``.

    ``names`` maps pair ids to display names (a missing id is drawn with its ``str``);
    ``displays`` maps match ids to the scores/notes to print (see :class:`MatchDisplay`).
    Winners come from the bracket itself (its recorded results). ``dom_id`` prefixes the
    ids inside the drawing (two drawings on one page need different ones).
    """
    displays = displays or {}
    structure = BracketStructure(bracket)
    numbers = match_numbers(bracket, structure)
    canvas = _Canvas()
    centers: dict[str, float] = {}  # match id -> y of the box's vertical centre
    columns: dict[str, int] = {}
    tops: dict[str, float] = {}

    def name_of(pair: Hashable) -> str:
        return str(names.get(pair, pair))

    def place_rounds(rounds, section: Section, top: float, first_column: int = 0) -> float:
        """Place a section's rounds as columns from ``top``; returns the section's bottom."""
        bottom = top
        for index, rnd in enumerate(rounds):
            column = first_column + index
            for position, m in enumerate(rnd):
                sources = [
                    centers[s.source.match_id]
                    for s in (m.top, m.bottom)
                    if s.source is not None
                    and s.source.takes == "winner"
                    and s.source.match_id in centers
                    and columns.get(s.source.match_id) == column - 1
                ]
                if sources:
                    center = sum(sources) / len(sources)
                else:
                    center = top + position * UNIT + BOX_H / 2
                centers[m.match_id] = center
                columns[m.match_id] = column
                tops[m.match_id] = center - BOX_H / 2
                bottom = max(bottom, center + BOX_H / 2)
        return bottom

    def column_x(column: int) -> float:
        return MARGIN + column * COL_W

    # -- placement ---------------------------------------------------------------------
    y = MARGIN
    if bracket.double:
        canvas.text(MARGIN, y + 16, labels.winners_bracket, "bk-section")
        y += SECTION_TITLE_H
    winners_titles_y = y
    y += ROUND_TITLE_H
    winners_bottom = place_rounds(bracket.winners, Section.WINNERS, y)
    last_column = len(bracket.winners) - 1
    losers_titles_y = None
    if bracket.double and bracket.losers:
        y = winners_bottom + SECTION_GAP
        canvas.text(MARGIN, y + 16, labels.losers_bracket, "bk-section")
        y += SECTION_TITLE_H
        losers_titles_y = y
        y += ROUND_TITLE_H
        place_rounds(bracket.losers, Section.LOSERS, y)
        last_column = max(last_column, len(bracket.losers) - 1)

    deciding: BracketMatch | None = bracket.winners[-1][0] if bracket.winners else None
    if bracket.double and bracket.finals:
        final_column = last_column + 1
        first = bracket.finals[0]
        feeding = [
            centers[s.source.match_id]
            for s in (first.top, first.bottom)
            if s.source is not None and s.source.match_id in centers
        ]
        center = sum(feeding) / len(feeding) if feeding else MARGIN + ROUND_TITLE_H + BOX_H / 2
        for offset, m in enumerate(bracket.finals):
            centers[m.match_id] = center
            columns[m.match_id] = final_column + offset
            tops[m.match_id] = center - BOX_H / 2
        last_column = final_column + len(bracket.finals) - 1
        deciding = bracket.finals[-1]  # the champion's box sits after the last final
    if bracket.third_place is not None and deciding is not None:
        final_center = centers[deciding.match_id]
        center = final_center + BOX_H + ROUND_TITLE_H + GAP_Y + BOX_H / 2
        m = bracket.third_place
        centers[m.match_id] = center
        columns[m.match_id] = columns[deciding.match_id]
        tops[m.match_id] = center - BOX_H / 2

    if bracket.classification:
        _place_classification(canvas, bracket, centers, columns, tops, labels)

    # -- column titles -----------------------------------------------------------------
    for rnd in bracket.winners:
        m = rnd[0]
        canvas.text(column_x(columns[m.match_id]), winners_titles_y + 15,
                    round_title(bracket, Section.WINNERS, m.round_number, labels), "bk-round")
    if losers_titles_y is not None:
        for rnd in bracket.losers:
            m = rnd[0]
            canvas.text(column_x(columns[m.match_id]), losers_titles_y + 15,
                        round_title(bracket, Section.LOSERS, m.round_number, labels), "bk-round")
    for m in bracket.finals:
        canvas.text(column_x(columns[m.match_id]), tops[m.match_id] - 8,
                    round_title(bracket, Section.GRAND_FINAL, m.round_number, labels), "bk-round")
    if bracket.third_place is not None:
        m = bracket.third_place
        canvas.text(column_x(columns[m.match_id]), tops[m.match_id] - 8, labels.third_place, "bk-round")

    # -- connectors --------------------------------------------------------------------
    for m in bracket.all_matches():
        x_in = column_x(columns[m.match_id])
        if m.section is Section.GRAND_FINAL and m.round_number > 1:
            previous = bracket.finals[m.round_number - 2]
            x_out = column_x(columns[previous.match_id]) + BOX_W
            cls = "bk-line bk-dashed"
            canvas.back.append(
                f'<path class="{cls}" d="M{x_out:g} {centers[m.match_id]:g}H{x_in:g}"/>'
            )
            continue
        for row, slot in enumerate((m.top, m.bottom)):
            source = slot.source
            if source is None or source.takes != "winner" or source.match_id not in centers:
                continue
            x_out = column_x(columns[source.match_id]) + BOX_W
            y_out = centers[source.match_id]
            y_in = tops[m.match_id] + ROW_H * row + ROW_H / 2
            x_mid = x_in - COL_GAP / 2
            live = slot.pair is not None
            cls = "bk-line bk-live" if live else "bk-line"
            canvas.back.append(f'<path class="{cls}" d="M{x_out:g} {y_out:g}H{x_mid:g}V{y_in:g}H{x_in:g}"/>')

    # -- boxes -------------------------------------------------------------------------
    for m in bracket.all_matches():
        _draw_match(canvas, m, column_x(columns[m.match_id]), tops[m.match_id], numbers, structure,
                    displays.get(m.match_id), name_of, labels)

    # -- champion ----------------------------------------------------------------------
    if deciding is not None:
        champion = bracket.champion
        champion_column = last_column + 1
        x = column_x(champion_column)
        center = centers[deciding.match_id]
        top = center - BOX_H / 2
        canvas.back.append(
            f'<path class="bk-line{" bk-live" if champion is not None else ""}" '
            f'd="M{column_x(columns[deciding.match_id]) + BOX_W:g} {center:g}H{x:g}"/>'
        )
        cls = "bk-champion bk-known" if champion is not None else "bk-champion"
        canvas.front.append(f'<g class="{cls}">')
        canvas.front.append(f'<rect x="{x:g}" y="{top:g}" width="{BOX_W:g}" height="{BOX_H:g}" rx="6"/>')
        canvas.text(x + 10, top + 16, labels.champion, "bk-champion-label")
        if champion is not None:
            full = name_of(champion)
            canvas.front.append(
                f'<text x="{x + 10:g}" y="{top + 35:g}" class="bk-champion-name">'
                f"<title>{_esc(full)}</title>{_esc(_short(full, NAME_CHARS + 2))}</text>"
            )
        else:
            canvas.text(x + 10, top + 35, "—", "bk-pending")
        canvas.front.append("</g>")
        canvas.grow(x + BOX_W, top + BOX_H)

    for m in bracket.all_matches():
        canvas.grow(column_x(columns[m.match_id]) + BOX_W, tops[m.match_id] + BOX_H)
    width = round(canvas.width + MARGIN)
    height = round(canvas.height + MARGIN)
    kind = "double" if bracket.double else "single"
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" class="bracket bracket-{kind}" '
            f'width="{width}" height="{height}" viewBox="0 0 {width} {height}" '
            f'id="{_esc(dom_id)}" role="img" aria-labelledby="{_esc(dom_id)}-title">',
            f'<title id="{_esc(dom_id)}-title">{_esc(labels.title)}</title>',
            _STYLE,
            '<g class="bk-lines">',
            *canvas.back,
            "</g>",
            *canvas.front,
            "</svg>",
        ]
    )


def _place_classification(canvas: _Canvas, bracket: EliminationBracket, centers: dict[str, float],
                          columns: dict[str, int], tops: dict[str, float], labels: Labels) -> None:
    """Places 5-8 as their own section under everything placed so far: its semifinals in the
    semifinals' column, the 5th-place match beside them (joined to them) and the 7th-place match
    under it, each titled."""
    by_id = {m.match_id: m for m in bracket.classification}
    bottom = max((tops[code] + BOX_H for code in tops), default=MARGIN)
    y = bottom + SECTION_GAP
    canvas.text(MARGIN, y + 16, labels.classification, "bk-section")
    y += SECTION_TITLE_H
    semis = [by_id[code] for code in ("5S-1", "5S-2") if code in by_id]
    first_column = (semis[0].round_number - 1) if semis else 0
    if semis:
        canvas.text(MARGIN + first_column * COL_W, y + 15, round_title(bracket, Section.CLASSIFICATION,
                                                                       semis[0].round_number, labels), "bk-round")
    y += ROUND_TITLE_H
    for position, m in enumerate(semis):
        centers[m.match_id] = y + position * UNIT + BOX_H / 2
    fifth_center = y + (UNIT / 2 if len(semis) > 1 else 0) + BOX_H / 2
    for code, center in (("5P", fifth_center), ("7P", fifth_center + BOX_H + ROUND_TITLE_H + GAP_Y)):
        if code in by_id:
            centers[code] = center
    for m in bracket.classification:
        columns[m.match_id] = m.round_number - 1
        tops[m.match_id] = centers[m.match_id] - BOX_H / 2
        if m.match_id in ("5P", "7P"):
            canvas.text(MARGIN + columns[m.match_id] * COL_W, tops[m.match_id] - 8, match_title(bracket, m, labels),
                        "bk-round")


def _draw_match(canvas: _Canvas, m: BracketMatch, x: float, top: float, numbers: Mapping[str, int],
                structure: BracketStructure,
                display: MatchDisplay | None, name_of, labels: Labels) -> None:
    number = numbers.get(m.match_id)
    classes = ["bk-match"]
    if structure.is_bye_match(m.match_id):
        classes.append("bk-unplayed")
    elif m.winner is not None:
        classes.append("bk-decided")
    elif m.unplayed:
        classes.append("bk-unplayed")
    elif m.playable:
        classes.append("bk-ready")
    out = canvas.front
    attrs = f' class="{" ".join(classes)}" data-match="{_esc(m.match_id)}"'
    if number is not None:
        attrs += f' data-number="{number}"'
    if display is not None and display.href:
        out.append(f'<a href="{_esc(display.href)}">')
    out.append(f"<g{attrs}>")
    out.append(f'<rect class="bk-box" x="{x:g}" y="{top:g}" width="{BOX_W:g}" height="{BOX_H:g}" rx="4"/>')
    if m.unplayed and not structure.is_bye_match(m.match_id):  # a bracket reset that was not needed
        canvas.text(x + NUM_W + (BOX_W - NUM_W) / 2, top + BOX_H / 2 + 4, labels.reset_not_needed, "bk-pending",
                    "middle")
        if number is not None:
            canvas.text(x + NUM_W / 2, top + BOX_H / 2 + 4, str(number), "bk-num", "middle")
        out.append(f'<path class="bk-sep" d="M{x + NUM_W:g} {top:g}V{top + BOX_H:g}"/>')
        out.append("</g>")
        if display is not None and display.href:
            out.append("</a>")
        return
    for row, slot in enumerate((m.top, m.bottom)):
        _draw_slot(canvas, m, slot, row, x, top, numbers, structure, display, name_of, labels)
    out.append(
        f'<path class="bk-sep" d="M{x + NUM_W:g} {top + ROW_H:g}H{x + BOX_W:g}'
        f'M{x + NUM_W:g} {top:g}V{top + BOX_H:g}M{x + BOX_W - SCORE_W:g} {top:g}V{top + BOX_H:g}"/>'
    )
    if number is not None:
        canvas.text(x + NUM_W / 2, top + BOX_H / 2 + 4, str(number), "bk-num", "middle")
    out.append("</g>")
    if display is not None and display.href:
        out.append("</a>")


def _draw_slot(canvas: _Canvas, m: BracketMatch, slot: Slot, row: int, x: float, top: float,
               numbers: Mapping[str, int], structure: BracketStructure, display: MatchDisplay | None, name_of,
               labels: Labels) -> None:
    y = top + row * ROW_H
    baseline = y + ROW_H / 2 + 4.5
    name_x = x + NUM_W + 6
    out = canvas.front
    won = m.winner is not None and slot.pair is not None and slot.pair == m.winner
    lost = m.winner is not None and slot.pair is not None and slot.pair != m.winner
    if won:
        out.append(
            f'<rect class="bk-win" x="{x + NUM_W:g}" y="{y:g}" width="{BOX_W - NUM_W:g}" height="{ROW_H:g}"/>'
        )
    if slot.pair is not None:
        full = name_of(slot.pair)
        cls = "bk-name bk-winner" if won else "bk-name bk-loser" if lost else "bk-name"
        seed = f'<tspan class="bk-seed">{slot.seed}</tspan> ' if slot.seed is not None else ""
        limit = NAME_CHARS - (len(str(slot.seed)) + 1 if slot.seed is not None else 0)
        # The nested <svg> clips what the character limit did not (wide letters, bold).
        out.append(
            f'<svg x="{name_x:g}" y="{y:g}" width="{NAME_W:g}" height="{ROW_H:g}">'
            f'<text x="0" y="{baseline - y:g}" class="{cls}" data-pair="{_esc(slot.pair)}">'
            f"<title>{_esc(full)}</title>{seed}{_esc(_short(full, limit))}</text></svg>"
        )
    elif slot.bye:
        canvas.text(name_x, baseline, labels.bye, "bk-bye")
    else:
        source = structure.source(slot)
        if source is not None and source.match_id in numbers:
            template = labels.winner_of if source.takes == "winner" else labels.loser_of
            text = template.format(match=numbers[source.match_id])
        else:
            text = labels.to_be_decided
        canvas.text(name_x, baseline, _short(text, NAME_CHARS + 3), "bk-pending")
    score = ""
    if display is not None:
        score = display.top_score if row == 0 else display.bottom_score
    if score:
        cls = "bk-score bk-winner" if won else "bk-score"
        if len(score) > 2:
            cls += " bk-small"
        canvas.text(x + BOX_W - SCORE_W / 2, baseline, _short(score, 4), cls, "middle")


_STYLE = (
    "<style>"
    ".bracket{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;font-size:12.5px}"
    ".bracket .bk-section{font-size:15px;font-weight:700;fill:#1d2320}"
    ".bracket .bk-round{font-size:12px;font-weight:600;fill:#5b655f;text-transform:uppercase;letter-spacing:.04em}"
    ".bracket .bk-box{fill:#fff;stroke:#c9c5b8;stroke-width:1}"
    ".bracket .bk-ready .bk-box{stroke:#0f6b3f;stroke-width:1.5}"
    ".bracket .bk-unplayed .bk-box{fill:#f3f1ea;stroke-dasharray:4 3}"
    ".bracket .bk-sep{stroke:#e4e1d7;stroke-width:1;fill:none}"
    ".bracket .bk-win{fill:#e3efe8}"
    ".bracket .bk-num{font-size:11px;fill:#5b655f}"
    ".bracket .bk-name{fill:#1d2320}"
    ".bracket .bk-winner{font-weight:700;fill:#0b4f2e}"
    ".bracket .bk-loser{fill:#8a928d}"
    ".bracket .bk-seed{font-size:10.5px;fill:#8a928d;font-weight:400}"
    ".bracket .bk-bye,.bracket .bk-pending{fill:#8a928d;font-style:italic}"
    ".bracket .bk-score{fill:#1d2320;font-variant-numeric:tabular-nums}"
    ".bracket .bk-small{font-size:10px;font-weight:600}"
    ".bracket .bk-line{fill:none;stroke:#bdb8aa;stroke-width:1.25}"
    ".bracket .bk-live{stroke:#0f6b3f;stroke-width:1.75}"
    ".bracket .bk-dashed{stroke-dasharray:5 4}"
    ".bracket .bk-champion rect{fill:#fff8e1;stroke:#c9a227;stroke-width:1.5}"
    ".bracket .bk-champion.bk-known rect{fill:#fdf0c2;stroke:#b38b00;stroke-width:2}"
    ".bracket .bk-champion-label{font-size:11px;font-weight:700;fill:#8a6d00;text-transform:uppercase;"
    "letter-spacing:.06em}"
    ".bracket .bk-champion-name{font-size:14px;font-weight:700;fill:#1d2320}"
    ".bracket a:hover .bk-box,.bracket a:focus .bk-box{stroke:#0f6b3f;stroke-width:2}"
    "</style>"
)
