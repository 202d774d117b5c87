"""Recall and false flags of the fair-play flags (fairplay/flags.py) on generated seasons with planted cases.

Run: ``.venv/bin/python benchmarks/fair_play.py [--seasons N] [--seed S]``. Prints ``name: value`` lines from one
run (docs/fair-play.md):

- ``recall_<kind>``: the share of planted cases of each kind that a flag of that kind names (``runs``: the
  colluding pair against its partner; ``pace``, ``burst``: the planted match), and ``recall_all``;
- ``false_flag_rate_honest_pairs``: the share of honest pairs (in no planted case of their season) named by any
  flag (a match's flag names both its pairs), with ``false_flag_rate_<kind>`` by kind. Targets: ≥ 80 % recall,
  ≤ 1 % of honest pairs flagged.

A season: 12 pairs meeting in 8 events (a circuit), each a round robin (66 matches), best of 1, each event its
own pace (1.2 to 3.2 minutes a hand). A hand is raised (truco) 45 % of the time and may be raised again (30 %);
the team facing a raise runs 25 % of the time (art. 13: the raiser scores the value before it), else the hand
is played out, won with a chance from the pairs' strengths; mãos de onze and de ferro by the engine's
``hand_start`` (art. 18: no raise). Tables enter hands as they go, 2 to 20 seconds late; one match in ten goes
offline for a while and its queued hands (up to 6) reach the server at once, with the next one. Planted in each
season, on six different pairs: one pair runs from 90 % of one opponent's raises in every meeting (``runs``);
one match's whole súmula typed (4 to 12 seconds a hand) 2 to 10 minutes after the match (``burst``); one match
"played" with a hand typed every 3 to 8 seconds (``pace``). The flags see the season's matches at once (the
runs test needs the meetings of a circuit: see docs/fair-play.md for one event alone).
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from draw.pairing.round_robin import berger_table  # noqa: E402
from fairplay.flags import Hand, MatchRecord, all_flags  # noqa: E402
from referee.engine.game import add_points, game_winner, hand_start  # noqa: E402
from referee.engine.rules import DEFAULT  # noqa: E402

PAIRS, EVENTS = 12, 8
HONEST_RUN = 0.25
COLLUDING_RUN = 0.9
KINDS = ("runs", "burst", "pace")


def berger(n: int) -> list[tuple[int, int]]:
    """A round robin's matches round by round (0-based): the Berger table the draw itself uses."""
    return [(a - 1, b - 1) for matches in berger_table(n) for a, b in matches]


def play(rng: random.Random, p: float, run_rate: tuple[float, float]) -> list[tuple[str, int, int | None]]:
    """One game of 12, hand by hand: (ended_by, value, winner); ``run_rate[t]``: how often team t runs."""
    score, hands = (0, 0), []
    while game_winner(score) is None:
        iron, eleven, value = hand_start(score, DEFAULT)
        fixed = iron or eleven is not None
        ended, winner = "tricks", None
        if not fixed and rng.random() < 0.45:
            raiser = 0 if rng.random() < 0.5 else 1
            value = 1
            for offered in (3, 6):
                if rng.random() < run_rate[1 - raiser]:
                    ended, winner = "run", raiser
                    break
                value = offered
                if rng.random() >= 0.3:
                    break
                raiser = 1 - raiser
        if winner is None:
            winner = 0 if rng.random() < p else 1
        score = add_points(score, winner, value, DEFAULT)
        hands.append((ended, value, winner))
    return hands


def _match(rng: random.Random, match_id: int, a: int, b: int, p: float, rates: tuple[float, float], start: float,
           pace: float, kind: str) -> MatchRecord:
    """One match as its súmula records it: hands entered live (or offline, then at once), or planted."""
    m = MatchRecord(match_id, a, b, start)
    now = start
    offline = rng.random() < 0.1
    queued: list[int] = []
    for ended, value, winner in play(rng, p, rates):
        now += rng.uniform(3, 8) if kind == "pace" else rng.gammavariate(1 / 0.36, pace * 0.36)
        m.hands.append(Hand(now + (0.0 if kind == "pace" else rng.uniform(2, 20)), 1, ended, value, winner))
        if offline and len(queued) < 6 and rng.random() < 0.5:
            queued.append(len(m.hands) - 1)
    if queued:  # the phone was offline: the queued hands arrive with the next one
        last = max(queued) + 1
        arrival = m.hands[last].at if last < len(m.hands) else m.hands[-1].at + 30
        for k in queued:
            m.hands[k].at = arrival + 0.2 * k
    if kind == "burst":  # the whole súmula typed 2 to 10 minutes after the match
        t = now + rng.uniform(120, 600)
        for h in m.hands:
            t += rng.uniform(4, 12)
            h.at = t
    return m


def season(rng: random.Random, number: int) -> tuple[list[MatchRecord], dict]:
    """EVENTS events of the same 12 pairs, each a round robin; planted: one colluding pair (every meeting with
    its partner), one burst súmula and one impossible-pace match, six different pairs."""
    strength = [rng.gauss(0.0, 0.6) for _ in range(PAIRS)]
    order = list(range(PAIRS))
    rng.shuffle(order)
    colluder, partner, burst_pairs, pace_pairs = order[0], order[1], (order[2], order[3]), (order[4], order[5])
    burst_event, pace_event = rng.randrange(EVENTS), rng.randrange(EVENTS)
    base = number * 100
    matches, planted_matches = [], {}
    for e in range(EVENTS):
        pace = rng.uniform(1.2, 3.2) * 60
        schedule = berger(PAIRS)
        rng.shuffle(schedule)
        for i, (a, b) in enumerate(schedule):
            rates = [HONEST_RUN, HONEST_RUN]
            if {a, b} == {colluder, partner}:
                rates[0 if a == colluder else 1] = COLLUDING_RUN
            kind = ""
            if e == burst_event and {a, b} == set(burst_pairs):
                kind = "burst"
            elif e == pace_event and {a, b} == set(pace_pairs):
                kind = "pace"
            p = 1 / (1 + math.exp(-(strength[a] - strength[b])))
            match_id = (number * EVENTS + e) * 100 + i
            start = float(((number * EVENTS + e) * 100 + i) * 10**4)
            m = _match(rng, match_id, base + a, base + b, p, (rates[0], rates[1]), start, pace, kind)
            if kind:
                planted_matches[kind] = match_id
            matches.append(m)
    involved = {base + p for p in (colluder, partner, *burst_pairs, *pace_pairs)}
    return matches, {"planted": {"runs": (base + colluder, base + partner), **planted_matches},
                     "involved": involved, "pairs": {base + p for p in range(PAIRS)},
                     "pairs_of": {m.match_id: (m.pair_a, m.pair_b) for m in matches}}


def run(seasons: int, seed: int) -> dict:
    rng = random.Random(seed)
    hits = {kind: 0 for kind in KINDS}
    honest = 0
    flagged_honest: dict[str, set] = {kind: set() for kind in KINDS}
    for number in range(seasons):
        matches, truth = season(rng, number)
        flags = all_flags(matches)
        colluder, partner = truth["planted"]["runs"]
        if any(f.kind == "runs" and f.pair == colluder and f.detail["opponent"] == partner for f in flags):
            hits["runs"] += 1
        for kind in ("burst", "pace"):
            if any(f.kind == kind and truth["planted"][kind] in f.matches for f in flags):
                hits[kind] += 1
        honest_pairs = truth["pairs"] - truth["involved"]
        honest += len(honest_pairs)
        for f in flags:
            named = {f.pair} if f.pair is not None else set(truth["pairs_of"][f.matches[0]])
            flagged_honest[f.kind].update(named & honest_pairs)
    return {"seasons": seasons, "hits": hits, "honest": honest, "flagged_honest": flagged_honest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seasons", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    began = time.process_time()
    out = run(args.seasons, args.seed)
    print(f"seasons: {out['seasons']}")
    print(f"matches: {out['seasons'] * EVENTS * len(berger(PAIRS))}")
    print(f"planted_cases: {len(KINDS) * out['seasons']}")
    print(f"honest_pairs: {out['honest']}")
    for kind in KINDS:
        print(f"recall_{kind}: {out['hits'][kind] / out['seasons']:.3f}")
    print(f"recall_all: {statistics.fmean(out['hits'][k] / out['seasons'] for k in KINDS):.3f}")
    every = set().union(*out["flagged_honest"].values())
    print(f"false_flag_rate_honest_pairs: {len(every) / out['honest']:.4f}")
    for kind in KINDS:
        print(f"false_flag_rate_{kind}: {len(out['flagged_honest'][kind]) / out['honest']:.4f}")
    print(f"cpu_s: {time.process_time() - began:.1f}")


if __name__ == "__main__":
    main()
