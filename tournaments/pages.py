"""What the tournament pages show: read-only views of a tournament shaped for the templates.

This module owns the read side of the pages (the public ones, ``public.views``; the organizer's,
``tournaments.views``): the rounds with their pairings and tables, the standings' tiebreak columns, the
scores of the games in progress (:func:`live_scores`), and the organizer's dashboard; the bracket drawing
and the round-robin grids are ``public.draw_pages``. Every function here runs a fixed
number of queries whatever the number of pairs (the page tests count them). Writes are never
made here: the pages call ``tournaments.services`` (through ``tournaments.forms``) and
``scoring.services``.
(The new-tournament form is ``tournaments.new_tournament``.)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Exists, OuterRef, Q
from django.urls import reverse
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.utils.translation import gettext_lazy

from scoring.models import Game, Match, Signature, SumulaVersion

from . import services
from .models import AuditEntry, BracketNode, Bye, CheckIn, Pair, Result, Round, Stage, TableAssignment, Tournament
from .svg import match_numbers  # noqa: F401 - the pages number a bracket's matches through here

# ------------------------------------------------------------------------------------ helpers


def stage_of(tournament: Tournament) -> Stage | None:
    """The stage in play (the last one started, else the first), or None before the organizer
    chose the format (one query)."""
    stages = list(Stage.objects.filter(tournament=tournament).order_by("position"))
    tournament.stage_list = stages  # kept for public_links: no second query
    started = [st for st in stages if st.started_at is not None]
    stage = started[-1] if started else (stages[0] if stages else None)
    if stage is not None:
        stage.tournament = tournament
        # what comes after it (the knockout after the groups: the "Chave" tab says so)
        stage.next_stage = next((st for st in stages if st.position > stage.position), None)
    return stage


def format_name(stages: list[Stage]) -> str:
    """The tournament's format as people say it, every stage in order: "3 groups,
    round robin → single elimination, with a third-place match", not the first stage's alone."""
    parts = []
    for st in stages:
        text = str(st.get_format_display())
        if st.has_groups and st.group_count > 1:
            text = ngettext("%(count)s group, round robin", "%(count)s groups, round robin",
                            st.group_count) % {"count": st.group_count}
        if st.is_bracket and st.format == Stage.Format.SINGLE_ELIMINATION and st.third_place:
            text = _("%(format)s, with a third-place match") % {"format": text}
        parts.append(text)
    return " → ".join(parts)


def group_stage_of(tournament: Tournament) -> Stage | None:
    """The stage whose groups the grid shows: the last started stage with groups, else the first
    stage when it has groups (one query)."""
    stages = [st for st in Stage.objects.filter(tournament=tournament).order_by("position") if st.has_groups]
    started = [st for st in stages if st.started_at is not None]
    stage = started[-1] if started else (stages[0] if stages and stages[0].position == 1 else None)
    if stage is not None:
        stage.tournament = tournament
    return stage


def result_text(result: Result | None, match_best_of: int, *, flip: bool = False) -> str:
    """A result as people read it: "2–1" (games) in a best of 3 or 5, "12–9" (tentos) in a single game,
    "W.O." for a walkover; from pair A's side, or pair B's with ``flip``."""
    if result is None:
        return ""
    if result.kind == Result.Kind.WALKOVER:
        return "W.O."
    if result.kind == Result.Kind.DOUBLE_WALKOVER:
        return "W.O. × W.O."
    if match_best_of == 1:
        a, b = result.points_a, result.points_b
    else:
        a, b = result.games_a, result.games_b
    if flip:
        a, b = b, a
    return f"{a}–{b}"


# ------------------------------------------------------------------------------- standings


TIEBREAK_LABELS = {
    "matches_won": (gettext_lazy("W"), gettext_lazy("Matches won")),
    "match_points": (gettext_lazy("Pts"), gettext_lazy("Match points (1 per win, ½ per draw)")),
    "games_won": (gettext_lazy("Games"), gettext_lazy("Games won")),
    "point_difference": (gettext_lazy("Diff."), gettext_lazy("Point difference (saldo de tentos)")),
    "points_scored": (gettext_lazy("Tentos"), gettext_lazy("Points (tentos) scored")),
    "head_to_head": (gettext_lazy("H2H"), gettext_lazy("Head-to-head among the tied pairs")),
    "buchholz": (gettext_lazy("Buch."), gettext_lazy("Buchholz: the opponents' match points")),
    "median_buchholz": (gettext_lazy("Med. B."), gettext_lazy("Median Buchholz: without the best and worst opponent")),
    "sonneborn_berger": (gettext_lazy("S-B"), gettext_lazy("Sonneborn-Berger")),
}


@dataclass
class TiebreakColumn:
    key: str
    short: str
    title: str


def tiebreak_columns(tiebreaks: list[str]) -> list[TiebreakColumn]:
    return [TiebreakColumn(key, str(TIEBREAK_LABELS.get(key, (key, key))[0]),
                           str(TIEBREAK_LABELS.get(key, (key, key))[1])) for key in tiebreaks]


def format_number(value) -> str:
    """A tiebreak value: whole numbers as they are, halves in the visitor's notation ("2,5")."""
    if isinstance(value, float):
        return formats.number_format(value, use_l10n=True)
    return str(value)


@dataclass
class StandingRowView:
    line: services.StandingLine
    values: list[str]
    withdrawn: bool


def value_columns(columns: list[TiebreakColumn]) -> list[TiebreakColumn]:
    """The tiebreak columns drawn after played / won / lost ("matches won" is the W column already)."""
    return [c for c in columns if c.key != "matches_won"]


def standing_rows(lines: list[services.StandingLine], columns: list[TiebreakColumn]) -> list[StandingRowView]:
    """Rows with the values of ``columns`` (see :func:`value_columns`) in order."""
    return [StandingRowView(line, [format_number(line.values.get(c.key, "")) for c in columns],
                            line.pair.status == Pair.Status.WITHDRAWN) for line in lines]


# ------------------------------------------------------------------------------------ rounds


@dataclass
class MatchRow:
    match: Match
    result: Result | None
    score: str
    node_code: str = ""
    number: int | None = None
    third_place: bool = False

    awaiting_referee: bool = False  # signed by both pairs, the referee's countersignature still missing
    until: object = None  # the projector: the match's time limit ends at (the room's clock), once started

    @property
    def classification(self) -> str:
        """A match for places 5 to 8 (the stage's ``classification`` option), by its bracket code; "" for any other."""
        return classification_label(self.node_code)

    @property
    def winner_id(self) -> int | None:
        return self.result.winner_id if self.result is not None else None

    @property
    def reopened(self) -> bool:
        """A received súmula corrected since: its official result stands until it is received again."""
        return (self.result is not None and self.result.kind == Result.Kind.SUMULA
                and self.match.status != Match.Status.RECEIVED)

    @property
    def signed_winner(self):
        """The pair the signed súmula says won (shown before the organizer receives it)."""
        m = self.match
        return m.pair(m.winner) if m.status == Match.Status.SIGNED and m.winner is not None else None


def classification_label(code: str) -> str:
    return {"5S-1": _("Places 5 to 8: semifinal"), "5S-2": _("Places 5 to 8: semifinal"),
            "5P": _("Fifth-place match"), "7P": _("Seventh-place match")}.get(code, "")


def mark_awaiting_referee(rows: list[MatchRow]) -> list[MatchRow]:
    """Flag the signed rows whose current version the match's referee has not countersigned (one query),
    so the organizer sees why "receive" would be refused before pressing it."""
    signed = [r for r in rows if r.match.status == Match.Status.SIGNED and r.match.referee_id]
    if not signed:
        return rows
    latest: dict[int, bool] = {}
    for match_id, countersigned in (
            SumulaVersion.objects.filter(match__in=[r.match.pk for r in signed])
            .annotate(countersigned=Exists(Signature.objects.filter(version=OuterRef("pk"), role="referee")))
            .order_by("match_id", "number").values_list("match_id", "countersigned")):
        latest[match_id] = countersigned  # the last (highest number) wins
    for row in signed:
        row.awaiting_referee = not latest.get(row.match.pk, False)
    return rows


def match_rows(matches: list[Match], numbers: dict[str, int] | None = None) -> list[MatchRow]:
    rows = []
    for match in matches:
        result = getattr(match, "tournament_result", None)
        node = getattr(match, "bracket_node", None)
        code = node.code if node is not None else ""
        rows.append(MatchRow(match, result, result_text(result, match.best_of), code,
                             (numbers or {}).get(code),
                             node is not None and node.section == BracketNode.Section.THIRD_PLACE))
    return rows


def generated_rounds(tournament: Tournament) -> list[Round]:
    """Generated rounds with their number of matches and of matches still without an official result."""
    official = Q(matches__tournament_result__isnull=False) & (
        Q(matches__tournament_result__kind__in=[Result.Kind.WALKOVER, Result.Kind.MANUAL,
                                                Result.Kind.DOUBLE_WALKOVER])
        | Q(matches__status=Match.Status.RECEIVED))
    return list(
        Round.objects.filter(tournament=tournament, generated_at__isnull=False)
        .annotate(match_count=Count("matches", distinct=True),
                  official_count=Count("matches", filter=official, distinct=True))
        .order_by("number")
    )


def current_round(rounds: list[Round]) -> Round | None:
    """The first round with a match still waiting for its official result, else the last round."""
    for rnd in rounds:
        if rnd.official_count < rnd.match_count:
            return rnd
    return rounds[-1] if rounds else None


def round_byes(rnd: Round) -> list[Pair]:
    return [b.pair for b in Bye.objects.filter(round=rnd).select_related("pair").order_by("pair__name")]


# -------------------------------------------------------------------------------- dashboard


def upcoming_round_number(tournament: Tournament, rounds: list[Round]) -> int:
    """The number of the round pairs check in for (read-only twin of ``services.upcoming_round``,
    which creates that round: a page must not write on GET)."""
    generated = [r.number for r in rounds]
    number = (max(generated) + 1) if generated else 1
    return number


@dataclass
class CheckInState:
    round_number: int
    round: Round | None
    checked: dict[int, int] = field(default_factory=dict)  # pair id -> its CheckIn's id (what an undo names)
    open: bool = True


def check_in_state(tournament: Tournament, stage: Stage | None, rounds: list[Round],
                   pairs: list[Pair] = ()) -> CheckInState | None:
    """Who is checked in for the round to be paired next, or None when no round will be paired by
    hand any more (a bracket fills in by itself once drawn; a finished tournament). Each of ``pairs``
    gets ``check_in_id``: the check-in its undo names (a stale device is refused: services.undo_check_in)."""
    state = _check_in_state(tournament, stage, rounds)
    for pair in pairs:
        pair.check_in_id = state.checked.get(pair.pk) if state else None
    return state


def _check_in_state(tournament: Tournament, stage: Stage | None, rounds: list[Round]) -> CheckInState | None:
    if tournament.status == Tournament.Status.FINISHED:
        return None
    if rounds and stage is not None and (stage.is_bracket or stage.bracket_first_round is not None):
        return None
    if rounds and (stage is None or stage.format != Stage.Format.SWISS or not tournament.check_in_required):
        # after the draw only a Swiss round is paired from who checked in (services.draw
        # ._entrants); a round robin's rounds are fixed at the draw, so round 2 has no check-in panel
        return None
    number = upcoming_round_number(tournament, rounds)
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    checked = dict(CheckIn.objects.filter(round=rnd).values_list("pair_id", "pk")) if rnd else {}
    return CheckInState(number, rnd, checked)


def referee_choices(tournament: Tournament) -> list:
    """The accounts the organizer may give ``tournament``'s tables to (``services.referees``: its club's people,
    never another club's), by login."""
    return list(services.referees.eligible(tournament).only("pk", "username", "first_name", "last_name"))


def table_assignments(tournament: Tournament) -> list[TableAssignment]:
    return list(TableAssignment.objects.filter(tournament=tournament).select_related("referee", "round")
                .order_by("table", "round__number"))


def recent_audit(tournament: Tournament, limit: int = 12) -> list[AuditEntry]:
    """The last entries; a format entry knows its stage (``stage_position``): a groups → knockout event
    configures two, which read as the same words otherwise."""
    entries = list(AuditEntry.objects.filter(tournament=tournament).select_related("actor", "round")
                   .order_by("-at", "-id")[:limit])
    for entry in entries:
        shown = entry.after if isinstance(entry.after, dict) else entry.before if isinstance(entry.before, dict) else {}
        entry.stage_position = (shown.get("position") if entry.action == AuditEntry.Action.STAGE_CONFIGURED
                                else None)
    return entries


def dashboard_pairs(tournament: Tournament) -> list[Pair]:
    return list(Pair.objects.filter(tournament=tournament)
                .select_related("first_player__club", "second_player__club", "substitute__club")
                .order_by("seed", "registered_at", "pk"))


def next_step(tournament: Tournament, stage: Stage | None, pairs: list[Pair], rounds: list[Round],
              current: Round | None, *, to_approve: int = 0) -> str:
    """One sentence telling the organizer what to do now (``to_approve``: sign-ups confirmed by both
    players waiting for the organizer's approval; a draw made without them leaves them out)."""
    confirmed = sum(1 for p in pairs if p.status == Pair.Status.CONFIRMED)
    if stage is None:
        return _("Choose the tournament's format.")
    if not rounds:
        if to_approve:
            return ngettext(
                "%(count)s sign-up waits for your approval (Sign-ups by the players): approve or refuse it "
                "before the draw.",
                "%(count)s sign-ups wait for your approval (Sign-ups by the players): approve or refuse them "
                "before the draw.", to_approve) % {"count": to_approve}
        if confirmed < 2:
            return _("Register the pairs (at least 2).")
        if tournament.check_in_required:
            return _("Check the pairs in, then make the draw.")
        return _("Make the draw when every pair is registered.")
    if tournament.status == Tournament.Status.FINISHED:
        return _("The tournament is finished.")
    if current is not None and current.official_count < current.match_count:
        return _("%(round)s: receive the signed súmulas (or record W.O.) as the matches end.") % {
            "round": current.display_name}
    stages = getattr(tournament, "stage_list", None)
    if stages is None:
        stages = list(Stage.objects.filter(tournament=tournament))
    if any(st.position == stage.position + 1 for st in stages) and services.stage_state(stage) == "complete":
        return _("%(stage)s is complete: start the next stage (see Stages).") % {"stage": stage.display_name}
    if stage.is_bracket or stage.bracket_first_round is not None:
        return _("The bracket fills in by itself as results become official.")
    return _("Every result is in: generate the next round.")


@dataclass
class Finished:
    """What the dashboard shows of a finished tournament: the podium and where the rest is."""

    podium: list  # the first places' standing lines (``line.place``, ``line.pair``)
    placings_url: str
    standings_export: str
    results_export: str
    sumulas_url: str


def finished_summary(tournament: Tournament) -> Finished:
    """The champion and the next places from the final standings (a knockout by its placings), the
    full placings' page, the exports and the súmulas' print index."""
    rows = [line for line in services.standings(tournament).rows
            if line.pair.status != Pair.Status.WITHDRAWN and line.rank <= 3][:4]
    slug = {"slug": tournament.slug}
    return Finished(rows, reverse("tournaments:standings", kwargs=slug),
                    reverse("tournaments-api:export-standings", kwargs=slug),
                    reverse("tournaments-api:export-results", kwargs=slug),
                    reverse("printing:tournament", kwargs=slug))


def format_summary(stage: Stage | None) -> str:
    """The format in one line, with the options that change it: "Single elimination · third-place
    match · seeding: organizer's order"."""
    if stage is None:
        return _("format not chosen")
    parts = [str(stage.get_format_display())]
    if stage.format in (Stage.Format.SINGLE_ELIMINATION, Stage.Format.GROUPS_KNOCKOUT):
        parts.append(_("with a third-place match") if stage.third_place else _("no third-place match"))
    if stage.format == Stage.Format.DOUBLE_ELIMINATION:
        parts.append(_("with a grand-final reset") if stage.grand_final_reset else _("no grand-final reset"))
    if stage.has_groups:
        parts.append(ngettext("%(count)s group", "%(count)s groups", stage.group_count) % {"count": stage.group_count})
    parts.append(_("seeding: %(method)s") % {"method": str(stage.get_seeding_display()).lower()})
    return " · ".join(parts)


def match_format_line(tournament: Tournament, stages: list[Stage]) -> str:
    """The games per match as they are played: the tournament's, then every stage, round or third-place
    match that differs ("Single game · Final: Best of 3 games"), not the tournament's alone."""
    labels = dict(Tournament.BestOf.choices)
    base = tournament.best_of
    parts = [str(labels.get(base, base))]
    several = len(stages) > 1
    for st in stages:
        own = st.best_of or base
        prefix = f"{st.display_name} · " if several else ""
        if own != base:
            parts.append(f"{st.display_name}: {labels.get(own, own)}")
        for key, games in sorted((st.round_best_of or {}).items(), key=lambda kv: int(kv[0])):
            if games == own:
                continue
            number = int(key)
            if st.is_bracket or st.bracket_first_round is not None or st.format == Stage.Format.GROUPS_KNOCKOUT:
                name = {-1: _("Final"), -2: _("Semifinals"), -3: _("Quarterfinals")}.get(number)
            else:
                name = None
            if name is None:
                name = (_("Round %(number)s") % {"number": number} if number > 0 else _("Last round")
                        if number == -1 else _("Round %(number)s from the end") % {"number": -number})
            parts.append(f"{prefix}{name}: {labels.get(games, games)}")
        if st.third_place and st.third_place_best_of and st.third_place_best_of != own:
            parts.append(f"{prefix}{_('Third-place match')}: {labels.get(st.third_place_best_of)}")
    return " · ".join(parts)


def public_links(tournament: Tournament, stage: Stage | None) -> list[tuple[str, str, str]]:
    """(url name, URL, label) of the public pages that make sense for this format."""
    slug = tournament.slug
    links = [("detail", reverse("tournaments:detail", kwargs={"slug": slug}), _("Pairs"))]
    if stage is None:
        return links
    stages = getattr(tournament, "stage_list", None)
    if stages is None:
        stages = list(Stage.objects.filter(tournament=tournament).only("format", "position"))
    if any(st.is_bracket for st in stages):
        links.append(("bracket", reverse("tournaments:bracket", kwargs={"slug": slug}), _("Bracket")))
    if any(st.has_groups for st in stages):
        links.append(("grid", reverse("tournaments:grid", kwargs={"slug": slug}), _("Groups")))
    if len(stages) > 1 or not stage.is_bracket:
        links.append(("standings", reverse("tournaments:standings", kwargs={"slug": slug}), _("Standings")))
    if len(stages) > 1:
        links.append(("stages", reverse("tournaments:stages", kwargs={"slug": slug}), _("Stages")))
    links.append(("rounds", reverse("tournaments:rounds", kwargs={"slug": slug}), _("Rounds")))
    return links


def live_scores(rows: list) -> None:
    """Give each row of a match still without its official result the score of its game in progress
    (``row.live``: tentos of the current game, ``row.live_games``: games won, in a best of 3 or 5), read
    from the súmula in one query. Unofficial: the projector marks it as the game in progress."""
    waiting = {row.match.pk: row for row in rows if row.result is None}
    for row in rows:
        row.live = row.live_games = ""
    current: dict[int, tuple[int, int, int]] = {}
    # one query even when nothing waits ([0]: an empty list would skip it, so the count would vary)
    for match_id, number, a, b, finished in (Game.objects.filter(match_id__in=list(waiting) or [0])
                                             .order_by("match_id", "number")
                                             .values_list("match_id", "number", "score_a", "score_b", "finished_at")):
        if finished is None:
            current[match_id] = (number, a, b)
    for match_id, row in waiting.items():
        match = row.match
        game = current.get(match_id)
        if (game is None or not (game[1] or game[2])) and not (match.games_a or match.games_b):
            continue  # nothing scored yet: no "0–0"
        row.live = f"{game[1]}–{game[2]}" if game is not None and (game[1] or game[2] or game[0] > 1) else ""
        if match.best_of > 1:
            row.live_games = f"{match.games_a}–{match.games_b}"
