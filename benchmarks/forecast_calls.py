"""Idle table-minutes between matches, with and without calling the next match on the forecast.

Run: ``.venv/bin/python benchmarks/forecast_calls.py [--events N] [--seed S] [--lead MIN] [--quantile low|median]``.
Prints ``name: value`` lines, each figure beside its baseline from the same run (docs/predictions.md):

- ``idle_table_minutes_per_event``: the minutes tables stand empty between the end of a match and the start of the
  next one at them, summed over the tables (the tail after a table's last match is not counted), with calls on
  the forecast; ``..._baseline``: the room's ready matches as they are (docs/room.md: a match is called when a
  table frees and both its pairs are free); ``..._oracle``: the forecast's rule fed with the true minutes left;
  ``idle_change_vs_baseline``: the relative change (the issue's target: -30 %);
- ``pair_wait_minutes_per_event``: what calling early costs: the pair-minutes pairs stand at their table before
  their match starts (in the baseline too: a pair that stays at its table waits for the other's walk);
- ``event_minutes``: from the first call to the last match's end;
- ``early_calls``: the share of matches called before their table freed.

The room (``room.services.ready``'s rule, re-played in pure Python): 12 pairs, a round robin (66 matches, Berger
order) on 4 tables, best of 1; a match is ready when both its pairs are free (not at a table, not called
elsewhere); the first ready match in Berger order is called to a free table. A called pair walks to its table in
1.5 to 4.5 minutes (uniform), or stays where it is when called to the table it has just played at; a match
starts when its table is free and both pairs are there.

Calling on the forecast: after each hand entered at a table with nothing called to it yet, the model of
``referee.engine.forecast`` (the score, the table's pace pulled toward the event's, as ``tournaments.forecasts``
does; even pairs, the default hands) gives the minutes to the end; when its ``--quantile`` (``low``: the 80 %
interval's 10 % end, the default; ``median``) is at most ``--lead`` minutes (3, about a walk), the table is
"about to free": the first match in Berger order whose pairs are free, or are the pairs at that very table, is
called to it. A table already free never waits for a pair still playing. Matches are played as in
``benchmarks/forecast.py`` (its ``play_match``: each event its pace, each table slower or quicker, raised hands
longer, 3 % of hands scoring nothing, 25 % of mãos de onze refused; pairs' strengths with a deviation of 1.4
hidden from the model); the same matches and walks are replayed under the three ways of calling.
"""
from __future__ import annotations

import argparse
import heapq
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from draw.pairing.round_robin import berger_table  # noqa: E402
from benchmarks.forecast import _hand_chance, play_match  # noqa: E402
from referee.engine.forecast import HandModel, Pace, forecast  # noqa: E402
from referee.engine.forecast.match import SITE_MINUTES_PER_HAND, blended_pace, pace_doubt  # noqa: E402
from referee.engine.game import game_winner  # noqa: E402

PAIRS, TABLES = 12, 4
LEAD = 3.0  # call the next match when the table should free within this many minutes (the mean walk)
WALK = (1.5, 4.5)
MODES = ("baseline", "forecast", "oracle")


def berger(n: int) -> list[tuple[int, int]]:
    """A round robin's matches round by round (0-based): the Berger table the draw itself uses."""
    return [(a - 1, b - 1) for matches in berger_table(n) for a, b in matches]


def event(rng: random.Random) -> list[dict]:
    """One event's matches, played in advance (times from the match's start) with each pair's walk."""
    strength = [rng.gauss(0.0, 1.4) for _ in range(PAIRS)]
    pace = rng.uniform(1.2, 3.2)
    out = []
    for a, b in berger(PAIRS):
        m = play_match(rng, _hand_chance(strength[a] - strength[b]), 1, pace * math.exp(rng.gauss(0.0, 0.25)),
                       rng.uniform(0.6, 1.6), 0.0)
        m["pairs"] = (a, b)
        m["walks"] = (rng.uniform(*WALK), rng.uniform(*WALK))
        out.append(m)
    return out


def _minutes_left(m: dict, n: int, event_pace: float, quantile: str) -> float:
    """The forecast's median minutes to the end after the match's ``n`` first hands (no time past the last)."""
    hands = m["hands"][:n]
    score = hands[-1]["score"] if hands else (0, 0)
    games = hands[-1]["games_after"] if hands else (0, 0)
    if game_winner(score) is not None:
        score = (0, 0)
    played = hands[-1]["at"] if hands else 0.0
    pace = blended_pace(len(hands), played, event_pace)
    found = forecast(score, games, HandModel(), Pace(pace, doubt=pace_doubt(len(hands))), best_of=1)
    return found.low if quantile == "low" else found.minutes


def simulate(matches: list[dict], mode: str, lead: float = LEAD, quantile: str = "low") -> dict:
    """Play the event's calls; returns the idle table-minutes, the pairs' wait, the event's length."""
    pending = list(range(len(matches)))  # Berger order
    state: dict[int, tuple] = {}  # pair -> ("playing", table) | ("called", table); free pairs are absent
    last_table: dict[int, int] = {}  # pair -> the table it last played at (it stays there if called to it)
    free_at: dict[int, float | None] = {t: 0.0 for t in range(TABLES)}  # None: in play
    soon: set[int] = set()  # tables whose match should end within LEAD (the forecast's, or the truth's)
    queued: dict[int, tuple[int, dict]] = {}  # table -> (match, pair -> arrival, None while it still plays)
    done_pace: list[tuple[int, float]] = []  # (hands, minutes) of the matches over
    idle = wait = 0.0
    early = 0
    heap: list[tuple[float, int, str, int, int]] = []  # (time, seq, kind, table, match/hand)
    seq = 0

    def push(at: float, kind: str, table: int, value: int) -> None:
        nonlocal seq
        seq += 1
        heapq.heappush(heap, (at, seq, kind, table, value))

    def available(pair: int, table: int) -> bool:
        """Free, or (calling on the forecast) playing at ``table`` itself, which should free soon: it stays."""
        where = state.get(pair)
        return where is None or (mode != "baseline" and where == ("playing", table) and table in soon)

    def walk(i: int, pair: int, table: int, now: float) -> float:
        a, _b = matches[i]["pairs"]
        return now if last_table.get(pair) == table else now + matches[i]["walks"][0 if pair == a else 1]

    def try_start(table: int) -> None:
        i, arrivals = queued[table]
        if free_at[table] is not None and None not in arrivals.values():
            push(max(free_at[table], *arrivals.values()), "start", table, i)

    def call(table: int, now: float) -> bool:
        i = next((i for i in pending if all(available(p, table) for p in matches[i]["pairs"])), None)
        if i is None:
            return False
        pending.remove(i)
        arrivals = {}
        for pair in matches[i]["pairs"]:
            arrivals[pair] = None if pair in state else walk(i, pair, table, now)
            state[pair] = ("called", table) if pair not in state else (*state[pair], table)
        queued[table] = (i, arrivals)
        try_start(table)
        return True

    def event_pace() -> float:
        hands = sum(h for h, _ in done_pace)
        minutes = sum(m for _, m in done_pace)
        return blended_pace(hands, minutes, SITE_MINUTES_PER_HAND) if hands else SITE_MINUTES_PER_HAND

    for t in range(TABLES):
        call(t, 0.0)
    last_end = 0.0
    while heap:
        now, _seq, kind, table, value = heapq.heappop(heap)
        if kind == "start":
            i, arrivals = queued.pop(table)
            if free_at[table] > 0.0:
                idle += now - free_at[table]
                wait += sum(now - at for at in arrivals.values())
            free_at[table] = None
            soon.discard(table)
            m = matches[i]
            for pair in m["pairs"]:
                state[pair] = ("playing", table)
                last_table[pair] = table
            for n, hand in enumerate(m["hands"][:-1], start=1):
                push(now + hand["at"], "hand", table, i * 1000 + n)
            push(now + m["end"], "end", table, i)
        elif kind == "hand":
            if mode == "baseline" or table in soon:
                continue
            i, n = divmod(value, 1000)
            m = matches[i]
            left = (m["end"] - m["hands"][n - 1]["at"]) if mode == "oracle" else _minutes_left(m, n, event_pace(), quantile)
            if left <= lead:
                soon.add(table)
                if table not in queued and call(table, now):
                    early += 1
                for other in range(TABLES):  # a free table may take a match of this table's pairs
                    if free_at[other] is not None and other not in queued:
                        call(other, now)
        elif kind == "end":
            i = value
            m = matches[i]
            done_pace.append((len(m["hands"]) - 1, m["hands"][-1]["at"] - m["hands"][0]["at"]))
            free_at[table] = now
            last_end = max(last_end, now)
            for pair in m["pairs"]:
                where = state.pop(pair)
                if len(where) == 3:  # called elsewhere (or here) while it played
                    target = where[2]
                    state[pair] = ("called", target)
                    j, arrivals = queued[target]
                    arrivals[pair] = walk(j, pair, target, now)
                    if target != table:
                        try_start(target)
            if table in queued:
                try_start(table)
            else:
                call(table, now)
            for other in range(TABLES):  # the pairs just freed may make a match ready for an empty table
                if other != table and free_at[other] is not None and other not in queued:
                    call(other, now)
    if pending or queued or state:
        raise RuntimeError(f"{mode}: the event did not play out ({len(pending)} matches left)")
    return {"idle": idle, "wait": wait, "length": last_end, "early": early / len(matches)}


def run(events: int, seed: int, lead: float = LEAD, quantile: str = "low") -> dict[str, list[float]]:
    rng = random.Random(seed)
    out: dict[str, list[float]] = {}
    for _ in range(events):
        matches = event(rng)
        for mode in MODES:
            for key, value in simulate(matches, mode, lead, quantile).items():
                out.setdefault(f"{key}_{mode}", []).append(value)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--lead", type=float, default=LEAD)
    parser.add_argument("--quantile", choices=("median", "low"), default="low")
    args = parser.parse_args()
    began = time.process_time()
    out = run(args.events, args.seed, args.lead, args.quantile)
    print(f"events: {args.events}")
    print(f"matches_per_event: {len(berger(PAIRS))}")
    print(f"tables: {TABLES}")
    mean = {key: statistics.fmean(values) for key, values in out.items()}
    print(f"idle_table_minutes_per_event: {mean['idle_forecast']:.1f}")
    print(f"idle_table_minutes_per_event_baseline: {mean['idle_baseline']:.1f}")
    print(f"idle_table_minutes_per_event_oracle: {mean['idle_oracle']:.1f}")
    print(f"idle_change_vs_baseline: {mean['idle_forecast'] / mean['idle_baseline'] - 1:+.1%}")
    print(f"idle_change_vs_baseline_oracle: {mean['idle_oracle'] / mean['idle_baseline'] - 1:+.1%}")
    print(f"pair_wait_minutes_per_event: {mean['wait_forecast']:.1f}")
    print(f"pair_wait_minutes_per_event_baseline: {mean['wait_baseline']:.1f}")
    print(f"pair_wait_minutes_per_event_oracle: {mean['wait_oracle']:.1f}")
    print(f"event_minutes: {mean['length_forecast']:.1f}")
    print(f"event_minutes_baseline: {mean['length_baseline']:.1f}")
    print(f"event_minutes_oracle: {mean['length_oracle']:.1f}")
    print(f"early_calls: {mean['early_forecast']:.2f}")
    print(f"early_calls_oracle: {mean['early_oracle']:.2f}")
    print(f"cpu_s: {time.process_time() - began:.1f}")


if __name__ == "__main__":
    main()
