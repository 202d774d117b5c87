"""The fair-play flags, computed from what the súmulas recorded (no Django: the benchmark runs them on generated
seasons, ``fairplay.report`` on an event's rows). Flags, never sanctions: each says what was seen, its evidence
and how unusual it is; a referee decides (docs/fair-play.md).

* :func:`pace_flags`: a whole game in less than :data:`FAST_GAME_SECONDS` (its first hand to its last, at least
  :data:`MIN_PACE_HANDS` typed: a phone's offline queue flushed at once is one) while the match was entered as
  it went (not a burst: a game of 12 points takes 5 hands or more, each a minute or more);
* :func:`burst_flags`: a whole súmula typed in one burst after the match: all its hands but one (and at least
  :data:`MIN_BURST_HANDS`) each within :data:`BURST_GAP_SECONDS` of the previous (a hand played takes a minute or
  more), the burst starting :data:`BURST_AFTER_SECONDS` or more after the match
  could start (``MatchRecord.started``: the room's last call of it, else its round's generation; else its first hand);
* :func:`run_flags`: a pair running from raises (``ended_by`` "run", art. 13: a team that refuses a raise loses
  the hand for the value before it) against one opponent far more than against its others: Fisher's exact test
  (``scipy.stats.fisher_exact``, one-sided) on the 2×2 table (its runs / its other raised hands, against this
  opponent / against the others), corrected for the number of (pair, opponent) tests with Benjamini-Hochberg
  (``scipy.stats.false_discovery_control``); flagged below :data:`RUNS_Q` and with at least :data:`MIN_RUNS`
  runs against that opponent.

The pace and burst flags are rules (a game of 12 points in 90 s is not played); how unusual each is is told
by the site's base rate (:func:`base_rate`: the share of the site's games or matches as fast).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from scipy.stats import false_discovery_control, fisher_exact

FAST_GAME_SECONDS = 90.0
BURST_GAP_SECONDS = 30.0
FLUSH_SECONDS = 1.5
BURST_AFTER_SECONDS = 600.0
MIN_BURST_HANDS = 5
MIN_PACE_HANDS = 5
RUNS_Q = 0.05
MIN_RUNS = 3


@dataclass
class Hand:
    at: float  # seconds (any origin, the same within a match)
    game: int
    ended_by: str
    value: int
    winner: int | None  # team 0 (pair A) or 1 (pair B)


@dataclass
class MatchRecord:
    match_id: int
    pair_a: int
    pair_b: int
    started: float | None  # the room's call or start (seconds), None when the room recorded none
    hands: list[Hand] = field(default_factory=list)


@dataclass(frozen=True)
class Flag:
    kind: str  # "pace", "burst", "runs"
    pair: int | None  # the pair it is about (None: the match as a whole)
    matches: tuple[int, ...]  # the súmulas that show it
    figure: float  # seconds (pace, burst), runs against that opponent (runs)
    detail: dict
    p_value: float | None = None  # runs: corrected (Benjamini-Hochberg)


def _raised(hand: Hand) -> bool:
    """A hand someone raised: it was run from, or it was worth more than 1 (art. 11, 13)."""
    return hand.ended_by == "run" or hand.value >= 3


def _sends(times: list[float]) -> list[tuple[float, int]]:
    """The hands grouped by how they reached the server: a phone's offline queue sends its hands at once (less
    than :data:`FLUSH_SECONDS` apart: one send, ``(time, hands)``); typed hands are seconds apart."""
    sends: list[tuple[float, int]] = []
    for at in times:
        if sends and at - sends[-1][0] < FLUSH_SECONDS:
            sends[-1] = (at, sends[-1][1] + 1)
        else:
            sends.append((at, 1))
    return sends


def _burst(m: MatchRecord) -> tuple[float, float] | None:
    """The burst a súmula was typed in, (its start, its seconds), or None: all its hands but one typed each
    within :data:`BURST_GAP_SECONDS` of the previous (at least :data:`MIN_BURST_HANDS` typed, not flushed from
    an offline queue), from :data:`BURST_AFTER_SECONDS` after the match's start on."""
    times = sorted(h.at for h in m.hands)
    n = len(times)
    if n < MIN_BURST_HANDS:
        return None
    start = m.started if m.started is not None else times[0]
    sends = _sends(times)
    first = 0
    for i in range(1, len(sends) + 1):
        if i == len(sends) or sends[i][0] - sends[i - 1][0] > BURST_GAP_SECONDS:
            hands = sum(k for _at, k in sends[first:i])
            begin = sends[first][0]
            if hands >= n - 1 and i - first >= MIN_BURST_HANDS and begin - start >= BURST_AFTER_SECONDS:
                return begin, sends[i - 1][0] - begin
            first = i
    return None


def burst_flags(matches: list[MatchRecord]) -> list[Flag]:
    out = []
    for m in matches:
        found = _burst(m)
        if found is not None:
            start, span = found
            late = start - (m.started if m.started is not None else min(h.at for h in m.hands))
            out.append(Flag("burst", None, (m.match_id,), span,
                            {"hands": len(m.hands), "minutes_after_start": round(late / 60, 1)}))
    return out


def game_seconds(m: MatchRecord) -> list[tuple[int, float, int]]:
    """Each game's (number, seconds, typed hands): from its first hand to its last, its hands counted as
    typed (an offline queue's flush counts once: :func:`_sends`)."""
    games: dict[int, list[float]] = {}
    for h in m.hands:
        games.setdefault(h.game, []).append(h.at)
    out = []
    for number in sorted(games):
        times = sorted(games[number])
        out.append((number, times[-1] - times[0], len(_sends(times))))
    return out


def pace_flags(matches: list[MatchRecord]) -> list[Flag]:
    out = []
    for m in matches:
        if _burst(m) is not None:
            continue  # typed after the match: the burst says it
        for number, seconds, typed in game_seconds(m):
            if seconds < FAST_GAME_SECONDS and typed >= MIN_PACE_HANDS:
                out.append(Flag("pace", None, (m.match_id,), seconds, {"game": number, "hands": typed}))
    return out


def run_flags(matches: list[MatchRecord]) -> list[Flag]:
    """Pairs that ran from raises against one opponent far more than against their others (see the module)."""
    table: dict[tuple[int, int], list[int]] = {}  # (pair, opponent) -> [runs, raised hands]
    where: dict[tuple[int, int], list[int]] = {}
    for m in matches:
        for me, other, team in ((m.pair_a, m.pair_b, 0), (m.pair_b, m.pair_a, 1)):
            cell = table.setdefault((me, other), [0, 0])
            where.setdefault((me, other), []).append(m.match_id)
            for h in m.hands:
                if _raised(h):
                    cell[1] += 1
                    if h.ended_by == "run" and h.winner == 1 - team:
                        cell[0] += 1
    totals: dict[int, list[int]] = {}
    for (me, _other), (runs, raised) in table.items():
        total = totals.setdefault(me, [0, 0])
        total[0] += runs
        total[1] += raised
    keys, p_values = [], []
    for (me, other), (runs, raised) in table.items():
        rest_runs, rest_raised = totals[me][0] - runs, totals[me][1] - raised
        if raised == 0 or rest_raised == 0:
            continue
        _odds, p = fisher_exact([[runs, raised - runs], [rest_runs, rest_raised - rest_runs]], alternative="greater")
        keys.append((me, other))
        p_values.append(p)
    if not p_values:
        return []
    corrected = false_discovery_control(p_values, method="bh")
    out = []
    for (me, other), p in zip(keys, corrected):
        runs, raised = table[(me, other)]
        if p < RUNS_Q and runs >= MIN_RUNS:
            rest_runs, rest_raised = totals[me][0] - runs, totals[me][1] - raised
            out.append(Flag("runs", me, tuple(where[(me, other)]), runs, {
                "opponent": other, "runs": runs, "raised": raised, "other_runs": rest_runs,
                "other_raised": rest_raised, "tests": len(p_values)}, float(p)))
    return out


def all_flags(matches: list[MatchRecord]) -> list[Flag]:
    return pace_flags(matches) + burst_flags(matches) + run_flags(matches)


def base_rate(values: list[float], threshold: float) -> float:
    """The share of ``values`` (the site's games' seconds, say) at or under ``threshold``."""
    return sum(1 for v in values if v <= threshold) / len(values) if values else 0.0
