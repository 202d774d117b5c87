"""Which rating method to use: every method on seasons generated under three assumptions and on a
held-out real-like season, with the properties a rating must keep (docs/ratings.md).

Run: ``.venv/bin/python benchmarks/rating_eval.py [--tune]``. Prints one line per method and season:

- ``logloss``: before each match is rated, the chance the ratings so far gave its winner
  (``predict_win``, the match model every method predicts with); the mean of ``-ln p`` after the
  first 100 matches (lower is better, 0.693 is a coin toss);
- ``winners_fell_%``: the share of match winners whose shown rating (``display``) fell with the
  match (a winner must never lose rating for winning);
- ``shift``: the mean shown rating at the season's end minus the ``match`` method's (the scale);
- ``spread``: the mean absolute difference of the shown ratings from the ``match`` method's.

Seasons: benchmarks/seasons.py's ``neutral``, ``raised`` and ``luck`` assumptions, seeds 6-10 each
(the parameters were chosen on seeds 1-3, ``--tune``), and benchmarks/real_like.py's season (seed
99, never used to choose). Methods: ``match``, ``margin``, ``hands`` (as now) and
``hands_per_hand`` (the method it replaced: every hand a 2-v-2 Plackett-Luce contest, the hand's
value as openskill's margin, ``beta`` 3 x 25/6, ``tau`` five times smaller; kept here to compare).

``--tune``: the hands method's strength on a grid, the center at the mean winner's share of the
tentos on the tuning seeds (and 0.1 below: larger moves), scored by the mean log-loss over the three
assumptions' seeds 1-3.
"""
from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from openskill.models import PlackettLuce  # noqa: E402

from benchmarks import real_like  # noqa: E402
from benchmarks.seasons import ASSUMPTIONS, season  # noqa: E402
from draw.pairing import ratings as r  # noqa: E402

WARM_UP = 100
METHODS = ("match", "margin", "hands_per_hand", "hands")


class PerHand(r.Ratings):
    """The former ``hands`` method (every hand rated as a contest), for the comparison only."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._hand_model = PlackettLuce(mu=r.MU, sigma=r.SIGMA, beta=3 * 25.0 / 6.0, tau=r.TAU / 5.0, margin=2.0)

    def _update_by_hands(self, m, before):
        state = before
        for side, value in m.hands:
            if side in (0, 1) and value > 0:
                state = r._rate(self._hand_model, state, side, float(value))
        return state


def make(method: str, shape=None) -> r.Ratings:
    if method == "hands_per_hand":
        return PerHand("hands")
    if shape is not None:
        return r.Ratings(method, hand_shape=shape)
    return r.Ratings(method)


def evaluate(matches, method: str, shape=None) -> dict:
    ratings = make(method, shape)
    loss = n = fell = winners = 0
    for i, m in enumerate(r.ordered(matches)):
        if not m.rates:
            continue
        if i >= WARM_UP:
            p = ratings.win_probability(m.team_a, m.team_b)
            p = p if m.winner == 0 else 1.0 - p
            loss += -math.log(min(max(p, 1e-12), 1.0))
            n += 1
        won = m.team_a if m.winner == 0 else m.team_b
        before = {p: ratings.get(p).display for p in won}
        ratings.rate([m])
        winners += 2
        fell += sum(1 for p in won if ratings.get(p).display < before[p])
    return {"logloss": loss / n, "n": n, "fell": fell, "winners": winners, "ratings": ratings}


def seasons(seeds) -> dict:
    out = {a: [season(seed=s, assumption=a) for s in seeds] for a in ASSUMPTIONS}
    return out


def pooled(results) -> tuple[float, float]:
    n = sum(x["n"] for x in results)
    return (sum(x["logloss"] * x["n"] for x in results) / n,
            100.0 * sum(x["fell"] for x in results) / sum(x["winners"] for x in results))


def scale(results, base) -> tuple[float, float]:
    shift, spread = [], []
    for x, b in zip(results, base):
        players = list(b["ratings"].current)
        shift.append(statistics.mean(x["ratings"].get(p).display - b["ratings"].get(p).display for p in players))
        spread.append(statistics.mean(abs(x["ratings"].get(p).display - b["ratings"].get(p).display) for p in players))
    return statistics.mean(shift), statistics.mean(spread)


def tune() -> None:
    tuning = seasons(range(1, 4))
    shares = [r.hand_share(m.hands, m.winner) for ss in tuning.values() for s in ss for m in s]
    mean_share = round(statistics.mean(x for x in shares if x is not None), 2)
    for center in (mean_share, mean_share - 0.1):
        for strength in (0.0, 1.0, 2.0, 3.0, 4.0, 6.0):
            losses = [pooled([evaluate(s, "hands", (strength, center)) for s in ss])[0] for ss in tuning.values()]
            print(f"tune strength={strength} center={center:.2f}: "
                  + " ".join(f"{a}={v:.4f}" for a, v in zip(ASSUMPTIONS, losses)) + f" mean={statistics.mean(losses):.4f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tune", action="store_true")
    args = parser.parse_args()
    if args.tune:
        tune()
        return
    held = seasons(range(6, 11))
    held["real_like"] = [real_like.season()]
    for name, ss in held.items():
        base = [evaluate(s, "match") for s in ss]
        for method in METHODS:
            results = base if method == "match" else [evaluate(s, method) for s in ss]
            loss, fell = pooled(results)
            shift, spread = scale(results, base)
            print(f"{name} {method}: logloss={loss:.4f} winners_fell_%={fell:.2f} shift={shift:+.1f} "
                  f"spread={spread:.1f} matches={sum(x['n'] for x in results)}")


if __name__ == "__main__":
    main()
