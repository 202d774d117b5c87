"""How well the forecasts of a match in play predict its end and its winner, on simulated events.

Run: ``.venv/bin/python benchmarks/forecast.py [--events N] [--seed S]``. Prints one figure per line as
``name: value``, each beside its baseline from the same run (docs/predictions.md):

- ``minutes_mae_<checkpoint>``: the median absolute error (minutes) of the forecast's median of the minutes
  to the match's end, at three checkpoints of each match: ``start`` (called, no hand yet), ``6_6`` (the first
  hand after which both teams have 6 or more in a game) and ``11_x`` (the first hand after which one team
  has 11 and the other less); ``minutes_mae_<checkpoint>_baseline``: the same chain with the site's pace
  (2 min a hand) and nothing learnt from the table or the event, even pairs and the default hands;
  ``minutes_cover80_<checkpoint>``: the share of matches whose true minutes fall in the 80 % interval;
- ``brier_<checkpoint>``: the Brier score of the chance that pair A wins the match (ratings + score),
  ``brier_<checkpoint>_baseline``: the score-only chance (even pairs, the same chain); ``brier_all`` and its
  baseline over every hand of every match (the chances alone, with the default hands: cheaper);
  ``reliability[_baseline]_<low>_<high>``: the forecasts (every hand of every match) that fell in that bin:
  how many, their mean, how often pair A won.

The simulation (pure Python; nothing of it is the model's): 64 players with a hidden strength (normal, mean
0, deviation 1) play ``HISTORY`` past events (benchmarks/seasons.py's games), rated with
``draw.pairing.ratings`` (``match``); then ``--events`` events of 16 tables and 3 rounds, best of 1 or of 3,
each with its own pace (1.2 to 3.2 minutes a hand), each table slower or quicker (log-normal, deviation
0.25), a hand lasting longer the more it was raised (+25 % per raise) with a coefficient of variation of 0.6.
A hand is won with seasons.py's chance from the strengths; its value follows the table's own raise habit (the
generated seasons' frequencies, each table's share of raises scaled by 0.6 to 1.6); 3 % of hands score
nothing; a team at 11 refuses 25 % of mãos de onze. Scores, mão de onze and de ferro through the engine's
``referee.engine.game`` (art. 18). Rounds start together; a match's forecast uses only what was entered before
it: the event's pace and hands so far (as ``tournaments.forecasts`` reads them) and the table's.
"""
from __future__ import annotations

import argparse
import bisect
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.seasons import HAND_SLOPE, VALUES, play_game  # noqa: E402
from draw.pairing.ratings import RatedMatch, Ratings  # noqa: E402
from referee.engine.forecast import HandModel, Pace, forecast, hand_probability  # noqa: E402
from referee.engine.forecast.chain import POINTS, observed_hands  # noqa: E402
from referee.engine.forecast.match import SITE_MINUTES_PER_HAND, blended_pace, match_win_probability, pace_doubt  # noqa: E402
from referee.engine.game import add_points, eleven_refused, game_winner, hand_start  # noqa: E402
from referee.engine.rules import DEFAULT  # noqa: E402

PLAYERS, HISTORY, ROUNDS, TABLES = 64, 6, 3, 16
CHECKPOINTS = ("start", "6_6", "11_x")


def _hand_chance(diff: float) -> float:
    return 1.0 / (1.0 + math.exp(-HAND_SLOPE * diff))


def history(rng: random.Random, strength: list[float]) -> Ratings:
    ratings = Ratings("match")
    match_id = 0
    for t in range(HISTORY):
        ids = list(range(PLAYERS))
        rng.shuffle(ids)
        pairs = [(ids[i], ids[i + 1]) for i in range(0, PLAYERS, 2)]
        for r in range(5):
            rng.shuffle(pairs)
            for i in range(0, len(pairs), 2):
                a, b = pairs[i], pairs[i + 1]
                diff = strength[a[0]] + strength[a[1]] - strength[b[0]] - strength[b[1]]
                winner, pa, pb, hands = play_game(rng, diff)
                match_id += 1
                ratings.rate([RatedMatch((t, r, i), match_id, a, b, winner, pa, pb, hands)])
    return ratings


def _value(rng: random.Random, raises: float) -> int:
    shares = [VALUES[0][1]] + [p * raises for _, p in VALUES[1:]]
    return rng.choices([v for v, _ in VALUES], shares)[0]


def play_match(rng: random.Random, p: float, best_of: int, pace: float, raises: float, start: float) -> dict:
    """One match hand by hand: each hand's end time, winner, points and the score and games after it."""
    need = best_of // 2 + 1
    games, score, now = [0, 0], (0, 0), start
    hands = []
    while max(games) < need:
        iron, eleven, value = hand_start(score, DEFAULT)
        winner, points, level = None, 0, 0
        if eleven is not None and rng.random() < 0.25:
            winner, points = eleven_refused(eleven, DEFAULT)
        elif rng.random() >= 0.03:
            winner = 0 if rng.random() < p else 1
            points = value if iron or eleven is not None else _value(rng, raises)
            level = POINTS.index(points) if points in POINTS else 1
        mean = pace * (1 + 0.25 * level)
        now += rng.gammavariate(1 / 0.36, mean * 0.36)
        after = add_points(score, winner, points, DEFAULT)
        hands.append({"at": now, "winner": winner, "points": points, "score": after, "before": score,
                      "games": tuple(games)})
        done = game_winner(after)
        if done is not None:
            games[done] += 1
            score = (0, 0)
        else:
            score = after
        hands[-1]["games_after"] = tuple(games)
    return {"hands": hands, "end": now, "winner": 0 if games[0] >= need else 1, "start": start}


def event_so_far(matches: list[dict], moment: float) -> tuple[float, tuple, float]:
    """What ``tournaments.forecasts.event_figures`` would read at ``moment``: pace, hand shares, no-score."""
    hands = minutes = 0.0
    scored = dict.fromkeys(POINTS, 0)
    tied = 0
    for m in matches:
        times = m["times"]
        n = bisect.bisect_right(times, moment)
        if n >= 2:
            hands += n - 1
            minutes += times[n - 1] - times[0]
        for h in m["hands"][:n]:
            if 11 in h["before"]:  # a mão de onze or de ferro: its value is fixed (art. 18)
                continue
            if h["winner"] is None:
                tied += 1
            elif h["points"] in scored:
                scored[h["points"]] += 1
    pace = blended_pace(int(hands), minutes, SITE_MINUTES_PER_HAND) if hands else SITE_MINUTES_PER_HAND
    shares, no_score = observed_hands(scored, tied)
    return pace, shares, no_score


def checkpoints(m: dict) -> dict[str, int]:
    """The number of hands entered at each checkpoint (0: the start)."""
    found = {"start": 0}
    for i, h in enumerate(m["hands"], start=1):
        a, b = h["score"]
        if game_winner(h["score"]) is not None:
            continue
        if "6_6" not in found and a >= 6 and b >= 6:
            found["6_6"] = i
        if "11_x" not in found and (a == 11) != (b == 11):
            found["11_x"] = i
    return found


def predict(m: dict, n: int, moment: float, event: tuple | None, chance: float | None, best_of: int):
    """(ours, baseline) after ``n`` hands: full forecasts with the event's figures, or with ``event`` None
    the chances of winning the match alone (with the event's hands taken as the defaults: cheaper)."""
    pace_event, shares, no_score = event or (SITE_MINUTES_PER_HAND, HandModel().points, HandModel().no_score)
    hands = m["hands"][:n]
    score = hands[-1]["score"] if hands else (0, 0)
    games = hands[-1]["games_after"] if hands else (0, 0)
    if game_winner(score) is not None:
        score = (0, 0)
    base = HandModel(points=shares, no_score=no_score)
    p = 0.5 if chance is None else round(hand_probability(round(chance, 2), base), 2)
    model = HandModel(p=p, points=shares, no_score=no_score)
    if event is None:
        return (match_win_probability(score, games, model, best_of),
                match_win_probability(score, games, HandModel(), best_of))
    played = (hands[-1]["at"] - m["start"]) if hands else 0.0
    pace = blended_pace(len(hands), played, pace_event)
    ours = forecast(score, games, model, Pace(pace, doubt=pace_doubt(len(hands))), best_of=best_of)
    baseline = forecast(score, games, HandModel(), Pace(SITE_MINUTES_PER_HAND, doubt=pace_doubt(0)), best_of=best_of)
    return ours, baseline


def run(events: int, seed: int) -> dict[str, list]:
    rng = random.Random(seed)
    strength = [rng.gauss(0.0, 1.0) for _ in range(PLAYERS)]
    ratings = history(rng, strength)
    out: dict[str, list] = {}
    for e in range(events):
        best_of = 1 if e % 2 == 0 else 3
        pace = rng.uniform(1.2, 3.2)
        ids = list(range(PLAYERS))
        rng.shuffle(ids)
        pairs = [(ids[i], ids[i + 1]) for i in range(0, PLAYERS, 2)]
        played: list[dict] = []
        start = 0.0
        for _round in range(ROUNDS):
            rng.shuffle(pairs)
            current = []
            for i in range(0, 2 * TABLES, 2):
                a, b = pairs[i], pairs[i + 1]
                diff = strength[a[0]] + strength[a[1]] - strength[b[0]] - strength[b[1]]
                table_pace = pace * math.exp(rng.gauss(0.0, 0.25))
                m = play_match(rng, _hand_chance(diff), best_of, table_pace, rng.uniform(0.6, 1.6), start)
                m["times"] = [h["at"] for h in m["hands"]]
                m["chance"] = ratings.win_probability(a, b)
                current.append(m)
            everyone = played + current
            for m in current:
                marks = checkpoints(m)
                won = 1.0 if m["winner"] == 0 else 0.0
                for kind, n in marks.items():
                    moment = m["start"] if n == 0 else m["times"][n - 1]
                    ours, baseline = predict(m, n, moment, event_so_far(everyone, moment), m["chance"], best_of)
                    truth = m["end"] - moment
                    out.setdefault(f"minutes_{kind}", []).append(abs(ours.minutes - truth))
                    out.setdefault(f"bias_{kind}", []).append(ours.minutes - truth)
                    out.setdefault(f"minutes_{kind}_baseline", []).append(abs(baseline.minutes - truth))
                    out.setdefault(f"cover_{kind}", []).append(ours.low <= truth <= ours.high)
                    out.setdefault(f"cover_{kind}_baseline", []).append(baseline.low <= truth <= baseline.high)
                    out.setdefault(f"brier_{kind}", []).append((ours.match_probability - won) ** 2)
                    out.setdefault(f"brier_{kind}_baseline", []).append((baseline.match_probability - won) ** 2)
                for n in range(len(m["hands"])):  # every hand: the chances alone
                    ours, baseline = predict(m, n, 0.0, None, m["chance"], best_of)
                    out.setdefault("reliability", []).append((ours, won))
                    out.setdefault("reliability_baseline", []).append((baseline, won))
                    out.setdefault("brier_all", []).append((ours - won) ** 2)
                    out.setdefault("brier_all_baseline", []).append((baseline - won) ** 2)
            played = everyone
            start = max(m["end"] for m in current) + 5.0
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    began = time.process_time()
    out = run(args.events, args.seed)
    print(f"events: {args.events}")
    print(f"matches: {len(out['minutes_start'])}")
    for kind in CHECKPOINTS:
        print(f"minutes_mae_{kind}: {statistics.median(out[f'minutes_{kind}']):.2f}")
        print(f"minutes_mae_{kind}_baseline: {statistics.median(out[f'minutes_{kind}_baseline']):.2f}")
        print(f"minutes_bias_{kind}: {statistics.median(out[f'bias_{kind}']):.2f}")
        print(f"minutes_cover80_{kind}: {sum(out[f'cover_{kind}']) / len(out[f'cover_{kind}']):.2f}")
        print(f"minutes_cover80_{kind}_baseline: "
              f"{sum(out[f'cover_{kind}_baseline']) / len(out[f'cover_{kind}_baseline']):.2f}")
        print(f"checkpoint_{kind}_matches: {len(out[f'minutes_{kind}'])}")
    for kind in (*CHECKPOINTS, "all"):
        print(f"brier_{kind}: {statistics.fmean(out[f'brier_{kind}']):.4f}")
        print(f"brier_{kind}_baseline: {statistics.fmean(out[f'brier_{kind}_baseline']):.4f}")
    for name in ("reliability", "reliability_baseline"):
        for low in range(0, 10):
            inside = [(p, w) for p, w in out[name] if low / 10 <= p < (low + 1) / 10 or (low == 9 and p == 1.0)]
            if inside:
                print(f"{name}_{low / 10:.1f}_{(low + 1) / 10:.1f}: n={len(inside)} "
                      f"forecast={statistics.fmean(p for p, _ in inside):.3f} "
                      f"won={statistics.fmean(w for _, w in inside):.3f}")
    print(f"cpu_s: {time.process_time() - began:.1f}")


if __name__ == "__main__":
    main()
