"""Read side of the live public pages: the projector view, a pair's page and a round's
wall sheet (``public.views`` renders them).

- :func:`projector_slides`: what a 1920×1080 screen across the room cycles through — the current
  round's tables (12 a slide, a game in progress with its score), the bracket's live part (its
  matches from the first round still being played on, 12 a slide, with names of 54 px as the
  tables: :func:`bracket_cards`; a withdrawn pair marked), the standings (one table per group
  during a group stage, still shown in the knockout that follows; 10 lines a slide) and, once the
  champion is known, the final placings (10 lines a slide);
- :func:`pair_page`: a pair's players and its matches in the tournament, each with the score from
  the pair's side and its súmula;
- :func:`pair_forecast`: when the pair's table should free and when its next match should start, and
  the projector's tables each with their forecast (``row.forecast``): the model is
  ``tournaments.forecasts`` (docs/predictions.md); nothing of it is computed here;
- :func:`wall_sheet_rows` and :func:`wall_sheet_pdf`: which pair plays at which table, one line per
  pair, alphabetical (accents and case ignored), printed with WeasyPrint for the venue's wall.

Every function runs a fixed number of queries whatever the number of pairs (tests count them).
"""
from __future__ import annotations

import itertools
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from scoring.models import Match
from tournaments import forecasts, pages, services
from tournaments.models import Bye, Pair, Result, Round, Stage, Tournament
from tournaments.room_hooks import room

from . import draw_pages, exports

#: tables shown on one projector slide (two columns of six: names in two lines of 5vh)
TABLES_PER_SLIDE = 12
#: standings lines on one projector slide (whole groups are kept on one slide)
STANDINGS_PER_SLIDE = 10
#: tiebreak columns shown after played / won / lost on the projector (the first ones of the stage)
STANDINGS_TIEBREAKS = 3
#: bracket matches on one projector slide (the tables' grid: two columns of six, names of 54 px)
BRACKET_PER_SLIDE = TABLES_PER_SLIDE
#: final placings lines on one projector slide
PLACINGS_PER_SLIDE = STANDINGS_PER_SLIDE
#: seconds each projector slide stays on screen
SLIDE_SECONDS = 12


def chunks(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)] or [[]]


@dataclass
class Slide:
    key: str
    kind: str  # "calls", "tables", "bracket", "standings", "groups", "placings"
    title: str
    items: list = field(default_factory=list)
    page: int = 1
    pages: int = 1


@dataclass
class Projector:
    tournament: Tournament
    stage: Stage | None
    round: Round | None
    slides: list[Slide]
    byes: list[Pair]
    champion: Pair | None
    columns: list = field(default_factory=list)
    clock: object = None  # the room's clock of the current round (room.calls_board.RoundClock), or None


@dataclass
class GroupTable:
    name: str  # "Group A"
    rows: list


def pack_groups(groups: list[GroupTable], lines: int) -> list[list[GroupTable]]:
    """Whole groups on each slide, as many as ``lines`` standings lines hold (a group longer than
    that has a slide of its own)."""
    parts: list[list[GroupTable]] = []
    used = lines
    for group in groups:
        if used + len(group.rows) > lines or not parts:
            parts.append([])
            used = 0
        parts[-1].append(group)
        used += len(group.rows)
    return parts or [[]]


def projector_slides(tournament: Tournament) -> Projector:
    """The projector's slides; the current round is the first with a match still waiting for its
    official result (else the last one), as on the rounds page."""
    stage = pages.stage_of(tournament)
    generated = pages.generated_rounds(tournament)
    current = pages.current_round(generated)
    slides: list[Slide] = []
    byes: list[Pair] = []

    called, clock = room().projector(tournament, current)
    calls = chunks(called, TABLES_PER_SLIDE) if called else []
    for i, part in enumerate(calls, start=1):
        slides.append(Slide(f"calls-{i}", "calls", _("Calls to the tables"), part, i, len(calls)))
    if current is not None:
        rows = pages.match_rows(services.round_matches(current))
        pages.live_scores(rows)
        table_forecasts(tournament, rows)
        parts = chunks(rows, TABLES_PER_SLIDE)
        for i, part in enumerate(parts, start=1):
            slides.append(Slide(f"tables-{i}", "tables", current.display_name, part, i, len(parts)))
        byes = pages.round_byes(current)
    view = services.bracket_view(tournament) if stage is not None else None
    champion = None
    columns: list = []
    if view is not None:
        champion = view.champion
        parts = pack_rounds(live_part(bracket_cards(view, withdrawn_ids(tournament))), BRACKET_PER_SLIDE)
        for i, part in enumerate(parts, start=1):
            # the first page keeps the plain key: "?tela=bracket" shows the live part whatever its size
            slides.append(Slide("bracket" if i == 1 else f"bracket-{i}", "bracket", _("Bracket"), part, i, len(parts)))
    stages = getattr(tournament, "stage_list", None) or ([stage] if stage is not None else [])
    if stage is not None and (not stage.is_bracket or len(stages) > 1):
        # one table per group; in the knockout after the groups the slide stays
        table = services.standings(tournament)
        played = [line for line in table.rows if line.played or line.byes]
        if played:
            columns = pages.value_columns(pages.tiebreak_columns(table.tiebreaks))[:STANDINGS_TIEBREAKS]
            if table.groups:
                parts = pack_groups([GroupTable(name, pages.standing_rows(lines, columns))
                                     for name, lines in table.groups], STANDINGS_PER_SLIDE)
                kind = "groups"
            else:
                parts = chunks(pages.standing_rows(table.rows, columns), STANDINGS_PER_SLIDE)
                kind = "standings"
            title = _("Group standings") if kind == "groups" else _("Standings")
            for i, part in enumerate(parts, start=1):
                slides.append(Slide(f"standings-{i}", kind, title, part, i, len(parts)))
    if champion is not None:
        parts = chunks(list(services.standings(tournament).rows), PLACINGS_PER_SLIDE)
        for i, part in enumerate(parts, start=1):
            slides.append(Slide(f"placings-{i}", "placings", _("Final placings"), part, i, len(parts)))
    if clock is not None:
        for slide in slides:
            if slide.kind == "tables":
                for row in slide.items:
                    row.until = clock.ends.get(row.match.pk)
    return Projector(tournament, stage, current, slides, byes, champion, columns, clock)


@dataclass
class BracketSide:
    """One place of a bracket match on the projector: the pair's name, or where it comes from."""

    text: str
    outcome: str  # "won", "lost", "pending" (no pair yet: "Winner of 5"), "" (not decided)
    out: str = ""  # "withdrawn" or "disqualified", translated: the pair left the tournament (art. 26)


@dataclass
class BracketCard:
    """A bracket match as the projector shows it, in the tables' grid."""

    number: int
    round: int  # the tournament round it is played in
    title: str  # "Quarterfinals", "Final", "Third place"...
    top: BracketSide
    bottom: BracketSide
    score: str
    table: int | None
    decided: bool  # an official result, or a match that is not needed

    @property
    def sides(self) -> tuple[BracketSide, BracketSide]:
        return self.top, self.bottom


def withdrawn_ids(tournament: Tournament) -> dict[int, str]:
    """The pairs that withdrew or were disqualified (art. 26), each with the word that says it; one query."""
    return {pk: _("disqualified") if disqualified else _("withdrawn")
            for pk, disqualified in Pair.objects.filter(tournament=tournament, status=Pair.Status.WITHDRAWN)
            .values_list("pk", "disqualified")}


def bracket_cards(view: services.BracketView, withdrawn: dict[int, str]) -> list[BracketCard]:
    """The bracket's numbered matches by round, each side with its outcome and a withdrawal marked."""
    by_code = {m.match_id: m for m in view.bracket.matches()}
    cards = []
    for row in draw_pages.bracket_rows(view):
        m = by_code[row.code]

        def side(slot, text: str, m=m) -> BracketSide:
            if slot.pair is None:
                return BracketSide(text, "pending")
            outcome = "" if m.winner is None else "won" if m.winner == slot.pair else "lost"
            return BracketSide(text, outcome, withdrawn.get(slot.pair, ""))

        cards.append(BracketCard(row.number, row.round, row.title, side(m.top, row.top), side(m.bottom, row.bottom),
                                 row.score, row.table, m.winner is not None or m.unplayed))
    cards.sort(key=lambda card: (card.round, card.number))
    return cards


def live_part(cards: list[BracketCard]) -> list[BracketCard]:
    """What the room follows: the matches from the first round with one still to decide on; once all
    are decided, the last round (the final and the third-place match)."""
    open_rounds = [card.round for card in cards if not card.decided]
    start = min(open_rounds) if open_rounds else max((card.round for card in cards), default=0)
    return [card for card in cards if card.round >= start]


def pack_rounds(cards: list[BracketCard], size: int) -> list[list[BracketCard]]:
    """Slides of at most ``size`` matches, a round kept whole on one slide when it fits."""
    parts: list[list[BracketCard]] = []
    for _round, group in itertools.groupby(cards, key=lambda card: card.round):
        for piece in chunks(list(group), size):
            if parts and len(parts[-1]) + len(piece) <= size:
                parts[-1].extend(piece)
            else:
                parts.append(piece)
    return parts


# --------------------------------------------------------------------------------- pair page


@dataclass
class PairMatch:
    """One of a pair's matches, seen from the pair's side."""

    match: Match
    round: Round | None
    opponent: Pair
    score: str
    outcome: str  # "won", "lost", "" (not decided)
    result: Result | None
    games: list[str]
    sumula: bool  # the súmula has something to show (games entered or signed)


@dataclass
class PairPage:
    pair: Pair
    matches: list[PairMatch]
    byes: list[Round]
    standing: services.StandingLine | None  # its line in the standings (not for a bracket alone)


def pair_page(tournament: Tournament, pair_id: int, stage: Stage | None) -> PairPage | None:
    """The pair (with its players), its matches by round, the rounds it had a bye in and its
    line in the standings; None when the tournament has no such pair. A fixed number of queries."""
    pair = (Pair.objects.filter(tournament=tournament, pk=pair_id)
            .select_related("first_player__club", "second_player__club", "substitute__club").first())
    if pair is None:
        return None
    rows = []
    for match in exports.matches_of_pair(pair):
        mine_a = match.pair_a_id == pair.pk
        result = getattr(match, "tournament_result", None)
        outcome = ""
        if result is not None:
            outcome = "won" if result.winner_id == pair.pk else "lost"
        games = [f"{g.score_a}–{g.score_b}" if mine_a else f"{g.score_b}–{g.score_a}"
                 for g in exports.finished_games(match)]
        written = any(g.score_a or g.score_b for g in match.games.all()) or match.status in (
            Match.Status.SIGNED, Match.Status.RECEIVED)
        rows.append(PairMatch(match, match.round, match.pair_b if mine_a else match.pair_a,
                              pages.result_text(result, match.best_of, flip=not mine_a), outcome, result, games,
                              written))
    byes = [b.round for b in Bye.objects.filter(pair=pair).select_related("round").order_by("round__number")]
    standing = None
    if stage is not None and not stage.is_bracket and pair.status != Pair.Status.PENDING:
        standing = next((line for line in services.standings(tournament).rows if line.pair.pk == pair.pk), None)
    return PairPage(pair, rows, byes, standing)


# --------------------------------------------------------------------------------- forecasts


def table_forecasts(tournament: Tournament, rows: list) -> None:
    """Give each row of a match in play its forecast (``row.forecast``, a ``forecasts.TableForecast``:
    the chance of each pair and when the match should end), None for the others. A fixed number of queries."""
    found = forecasts.estimates(tournament.pk, [row.match for row in rows if row.result is None])
    for row in rows:
        row.forecast = found.get(row.match.pk)


@dataclass(frozen=True)
class PairForecast:
    """What a pair's page says of the time: its table's expected end (its match in play), or when its next
    match should start (the match not called yet: once its opponent's table frees, or the first table that
    frees when nobody of it plays)."""

    playing: forecasts.TableForecast | None  # the pair's match in play
    starts_at: datetime | None  # the next match's likely start (not called yet)
    mine_a: bool = True  # the pair is the match's pair A (its chance is ``percent_a``)

    @property
    def percent(self) -> int | None:
        if self.playing is None:
            return None
        return self.playing.percent_a if self.mine_a else self.playing.percent_b


def pair_forecast(tournament: Tournament, pair: Pair, found) -> PairForecast | None:
    """The forecast of ``found`` (``public.where.next_match`` of the pair), None when there is nothing to
    say (no match left, or no table in play to tell by). A fixed number of queries."""
    if found is None:
        return None
    in_play = forecasts.in_play(tournament)
    by_match = {f.match.pk: f for f in in_play}
    if found.table is not None:
        mine = by_match.get(found.match.pk)
        return PairForecast(mine, None, found.match.pair_a_id == pair.pk) if mine is not None else None
    opponent = found.opponent.pk
    theirs = [f for f in in_play if opponent in (f.match.pair_a_id, f.match.pair_b_id)]
    if theirs:  # the opponent still plays: the match starts when that table frees
        return PairForecast(None, theirs[0].ends_at)
    if in_play:  # every table busy or not, the first to free is the latest it should wait for
        return PairForecast(None, in_play[0].ends_at)
    return None


# --------------------------------------------------------------------------------- wall sheet


@dataclass
class WallLine:
    pair: str
    players: str
    table: int | None
    opponent: str
    bye: bool = False
    label: str = ""  # "Third-place match" / "Final" when a round holds both


def sort_key(name: str) -> tuple[str, str]:
    """Alphabetical as people read it: accents and case ignored ("Águias" next to "Aguiar")."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    return plain.casefold(), name


def wall_sheet_rows(rnd: Round) -> list[WallLine]:
    """One line per pair of the round: its table and opponent (a bye has no table), alphabetical."""
    lines = []
    matches = services.round_matches(rnd)
    third = {m.pk for m in matches if getattr(getattr(m, "bracket_node", None), "section", "") == "third_place"}
    for match in matches:
        label = pages.classification_label(getattr(getattr(match, "bracket_node", None), "code", ""))
        if third and not label:
            label = _("Third-place match") if match.pk in third else _("Final")
        for me, other in ((match.pair_a, match.pair_b), (match.pair_b, match.pair_a)):
            lines.append(WallLine(me.name, " / ".join(p.name for p in me.players), match.table, other.name,
                                  label=label))
    for bye in Bye.objects.filter(round=rnd).select_related("pair__first_player", "pair__second_player"):
        lines.append(WallLine(bye.pair.name, " / ".join(p.name for p in bye.pair.players), None, "", bye=True))
    lines.sort(key=lambda line: sort_key(line.pair))
    return lines


def wall_sheet_pdf(tournament: Tournament, rnd: Round) -> bytes:
    """The wall sheet of a round as an A4 PDF (large type; the header repeats on every page)."""
    from weasyprint import HTML

    html = render_to_string("tournaments/wall_sheet.html", {
        "tournament": tournament, "round": rnd, "lines": wall_sheet_rows(rnd)})
    return HTML(string=html).write_pdf()
