"""Pairing speed: a Swiss round for 1,024 and 4,096 pairs, and a 1,024-pair knockout.

Run: ``.venv/bin/python benchmarks/pairings.py [--repeat R] [--seed S]``.  Prints one
figure per line as ``name: value`` (seconds, 3 decimals, median of R runs):

- ``swiss_1024_s``: pairing round 6 of a Swiss for 1,024 pairs, after 5 simulated rounds
  (random results weighted by a hidden strength, standings by score then Buchholz), so
  past opponents must be avoided and score groups are uneven;
- ``swiss_4096_s``: the same for 4,096 pairs;
- ``swiss_N_cpu_s``: ``swiss_N_s`` on this process's CPU time, steadier when the machine
  is shared (with SQLite everything runs in this process; PostgreSQL's own work is not
  counted);
- ``bracket_1024_s``: building a 1,024-pair single-elimination bracket and recording
  every result, round by round, up to the champion;
- ``swiss_N_avoid_s``: the pairing alone (no database) with prohibited pairings (club
  mates apart, docs/tournaments.md): a quarter of the field in clubs of four pairs that should not meet, as a tier of
  the matching's weight; compare with ``swiss_N_pairing_s``. With avoided pairs the
  score-group shortcut is off (its proof needs the bye tier right above the scores), and a
  club pair met inside the candidate window sends the matching to the complete allowed graph
  (so that an avoiding pairing is found whenever one exists): that is the extra cost.
  ``swiss_N_avoid_unavoided`` counts the club boards left (0 when they could all be avoided).

Baselines, measured in the same run (same machine, same load):

- ``swiss_N_pairing_s``: the pairing alone, no database (what the writes add is the
  difference with ``swiss_N_s``);
- ``swiss_N_whole_graph_s``: the pairing alone with the matching run on the whole
  candidate graph (the score-group shortcut of ``draw.pairing.swiss_blocks``
  switched off): what rustworkx alone gives.

Targets: ``swiss_1024_s`` < 1, ``swiss_4096_s`` <= 0.5 (with the database writes),
``bracket_1024_s`` < 1 (one core). The nodes whose state changed are written with the ORM, one
``UPDATE`` a node: 0.57 s on SQLite, against 0.44 s for the hand-written batched UPDATE it replaced and
1.5 s for ``bulk_update`` (its ``CASE`` per field), measured in one session on a 2-core machine. A
1,024-pair bracket is four times the biggest venue; the difference is ~13 ms a round.

Matchers compared on the graphs this benchmark's Swiss builds (round 6 after 5 simulated
rounds, seed 2026; the matching alone, median of 3; measured with the machine shared, load
average about 5 on 2 cores, so every figure is inflated about alike):

====== ====== ============= ========= ====================== =========
pairs  edges  old blossom   rustworkx rustworkx, by groups   networkx
====== ====== ============= ========= ====================== =========
256    4,353  11 ms         10 ms     2 ms                   236 ms
1,024  18,220 159 ms        115 ms    48 ms                  5,798 ms
4,096  73,382 2,120 ms      1,365 ms  337 ms                 (not run)
====== ====== ============= ========= ====================== =========

"old blossom" is the project's former pure-Python Edmonds blossom with warm start (deleted
when rustworkx replaced it); all four reach the same total weight on every graph.  networkx 3.6 was
installed for the measurement only (it is not a dependency).

The figures include the database writes, done by :func:`store_pairings` inside every timed
section with the project's own code (``tournaments.services.write_pairings`` and
``persist_bracket``), each in one transaction with bulk inserts:

- Swiss: the round's ``Round`` row, its ``scoring.Match`` rows (tables 1..N, referees of
  the tables, rule set and match format copied), their first ``Game`` and the bye;
- bracket: all the ``BracketNode`` rows at the draw; after each round, the official
  ``Result`` rows of the matches just decided, the nodes whose state changed, and the
  matches (with their rounds) that became playable.

Django settings are ``config.settings``: PostgreSQL when ``DATABASE_URL`` is set (for
example ``postgres://postgres@127.0.0.1:5432/truco_bench``; the database must exist, the
benchmark migrates it, adds its own tournaments and deletes them at the end), otherwise a
temporary SQLite file (deleted at the end); ``DEBUG`` is off, as in production. The setup
(tournaments, players, pairs) is not timed. ``--no-db`` times the pure algorithms only. The
database used is printed on stderr, the figures on stdout.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from draw.pairing.elimination import (  # noqa: E402
    EliminationBracket,
    record_results,
    single_elimination,
)
from draw.pairing.swiss import SwissEntrant, SwissRound, pair_swiss_round  # noqa: E402


class Database:
    """The benchmark's tournaments in the database, and the writes timed with the pairings."""

    def __init__(self) -> None:
        self.tmpdir = None
        if not os.environ.get("DATABASE_URL"):
            self.tmpdir = tempfile.TemporaryDirectory(prefix="truco-bench-")
            os.environ["DATABASE_URL"] = f"sqlite:///{self.tmpdir.name}/bench.sqlite3"
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        call_command("migrate", verbosity=0)
        from django.conf import settings

        settings.DEBUG = False  # as in production: no query log kept in memory
        self.vendor = connection.vendor
        from django.contrib.auth import get_user_model

        self.organizer, _ = get_user_model().objects.get_or_create(username="benchmark-organizer")
        self.run = random.SystemRandom().randrange(10**9)
        self.count = 0
        self.swiss: dict[int, tuple] = {}  # pairs -> (tournament, pair pks, rounds made)
        self.bracket = None  # (stage, pair pks, nodes)

    def close(self) -> None:
        from django.db import connections

        if self.tmpdir is None:
            self.clean_up()
        connections.close_all()
        if self.tmpdir is not None:
            self.tmpdir.cleanup()

    def clean_up(self) -> None:
        """Delete this run's tournaments (a configured database keeps nothing of the benchmark)."""
        from django.db import transaction

        from scoring.models import Match
        from tournaments.models import BracketNode, Bye, Pair, Player, Result, Tournament

        with transaction.atomic():
            tournaments = Tournament.objects.filter(slug__startswith=f"bench-{self.run}-")
            players = list(Pair.objects.filter(tournament__in=tournaments).values_list("first_player", "second_player"))
            Result.objects.filter(tournament__in=tournaments).delete()
            BracketNode.objects.filter(stage__tournament__in=tournaments).delete()
            Bye.objects.filter(round__tournament__in=tournaments).delete()
            Match.objects.filter(tournament__in=tournaments).delete()
            tournaments.delete()
            Player.objects.filter(pk__in=[pk for both in players for pk in both]).delete()

    def tournament(self, pairs: int, fmt: str):
        """A tournament with ``pairs`` confirmed pairs and its stage (untimed setup)."""
        import datetime

        from tournaments.models import Pair, Player, Stage, Tournament

        self.count += 1
        t = Tournament.objects.create(name=f"Benchmark {self.run}-{self.count}", slug=f"bench-{self.run}-{self.count}",
                                      date=datetime.date.today(), organizer=self.organizer,
                                      status=Tournament.Status.IN_PROGRESS)
        players = Player.objects.bulk_create([Player(name=f"Player {i}") for i in range(2 * pairs)])
        made = Pair.objects.bulk_create([
            Pair(tournament=t, name=f"Pair {i}", first_player=players[2 * i], second_player=players[2 * i + 1])
            for i in range(pairs)
        ])
        stage = Stage.objects.create(tournament=t, format=fmt)
        stage.tournament = t
        return t, stage, [p.pk for p in made]

    def prepare_swiss(self, pairs: int) -> None:
        t, _stage, pks = self.tournament(pairs, "swiss")
        self.swiss[pairs] = [t, pks, 0]

    def prepare_bracket(self, pairs: int) -> list[int]:
        _t, stage, pks = self.tournament(pairs, "single_elimination")
        stage.bracket_seeds, stage.bracket_first_round = pks, 1
        stage.save(update_fields=["bracket_seeds", "bracket_first_round"])
        self.bracket = (stage, pks, None)
        return pks

    def store_swiss(self, result: SwissRound, pairs: int) -> None:
        from django.db import transaction
        from django.utils import timezone

        from tournaments.models import Round
        from tournaments.services import write_pairings

        state = self.swiss[pairs]
        t, pks, made = state
        state[2] = made + 1
        with transaction.atomic():
            rnd = Round.objects.create(tournament=t, number=made + 1, phase=Round.Phase.SWISS,
                                       generated_at=timezone.now())
            rnd.tournament = t
            write_pairings(rnd, [(pks[p.home], pks[p.away], p.board) for p in result.pairings],
                           byes=[pks[result.bye]] if result.bye is not None else [], by=self.organizer)

    def store_bracket(self, bracket: EliminationBracket) -> None:
        from django.db import transaction

        from django.utils import timezone

        from tournaments.models import Result
        from tournaments.services import _create_nodes, persist_bracket

        stage, pks, nodes = self.bracket
        with transaction.atomic():
            if nodes is None:
                nodes = {n.code: n for n in _create_nodes(stage, bracket)}
                self.bracket = (stage, pks, nodes)
            decided = []
            now = timezone.now()
            for m in bracket.all_matches():
                node = nodes[m.match_id]
                if m.winner is not None and not m.unplayed and node.match_id is not None and node.winner_id is None:
                    a, b = node.match_pairs
                    top_won = m.winner == a
                    decided.append(Result(
                        match_id=node.match_id, tournament_id=stage.tournament_id,
                        kind=Result.Kind.MANUAL.value, pair_a_id=a, pair_b_id=b, winner_id=m.winner,
                        games_a=int(top_won), games_b=int(not top_won), points_a=12 if top_won else 5,
                        points_b=5 if top_won else 12, reason="benchmark",
                        recorded_by_id=self.organizer.pk, recorded_at=now))
            Result.objects.bulk_create(decided)  # the results made official (in a tournament: one by one)
            persist_bracket(stage, bracket, nodes, self.organizer)


DB: Database | None = None


def store_pairings(kind: str, payload: object, **context) -> None:
    """Persist what was just paired (called inside the timed sections); see the module docstring.

    ``kind`` "swiss" (a SwissRound, ``pairs=`` the field size) or "bracket" (an
    EliminationBracket whose pair ids are the pairs' primary keys). Nothing with ``--no-db``.
    """
    if DB is None:
        return
    if kind == "swiss":
        DB.store_swiss(payload, context["pairs"])  # type: ignore[arg-type]
    else:
        DB.store_bracket(payload)  # type: ignore[arg-type]


def swiss_after_rounds(pairs: int, rounds: int, seed: int) -> list[SwissEntrant]:
    """Entrants in standing order after ``rounds`` simulated Swiss rounds."""
    rng = random.Random(seed)
    strength = [rng.random() for _ in range(pairs)]
    score = [0] * pairs
    opponents: list[set[int]] = [set() for _ in range(pairs)]
    byes = [0] * pairs

    def entrants() -> list[SwissEntrant]:
        buchholz = [sum(score[o] for o in opponents[i]) for i in range(pairs)]
        order = sorted(range(pairs), key=lambda i: (-score[i], -buchholz[i], i))
        return [SwissEntrant(i, score[i], frozenset(opponents[i]), byes[i]) for i in order]

    for _ in range(rounds):
        result = pair_swiss_round(entrants())
        if result.rematches:
            raise SystemExit("simulation produced a rematch")
        for p in result.pairings:
            a, b = p.home, p.away
            opponents[a].add(b)
            opponents[b].add(a)
            winner = a if rng.random() < strength[a] / (strength[a] + strength[b]) else b
            score[winner] += 1
        if result.bye is not None:
            byes[result.bye] += 1
            score[result.bye] += 1
    return entrants()


def clubs(entrants: list[SwissEntrant], seed: int) -> list[frozenset]:
    """A quarter of the field in clubs of four pairs (drawn with ``seed``): every two of a club avoid
    each other (prohibited pairings)."""
    rng = random.Random(seed)
    ids = [e.pair_id for e in entrants]
    members = rng.sample(ids, len(ids) // 4)
    out = []
    for k in range(0, len(members) - 3, 4):
        club = members[k:k + 4]
        out.extend(frozenset((a, b)) for i, a in enumerate(club) for b in club[i + 1:])
    return out


def time_it(work: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    runs = []
    for _ in range(repeat):
        gc.collect()
        start = clock()
        work()
        runs.append(clock() - start)
    return statistics.median(runs)


def swiss_round(entrants: list[SwissEntrant]) -> SwissRound:
    result = pair_swiss_round(entrants)
    store_pairings("swiss", result, pairs=len(entrants))
    return result


def whole_graph_pairing(entrants: list[SwissEntrant]) -> SwissRound:
    """The pairing with the score-group shortcut off: rustworkx on the whole candidate graph."""
    import draw.pairing.swiss as swiss

    shortcut = swiss.solve_by_score_groups
    swiss.solve_by_score_groups = lambda *args: None
    try:
        return pair_swiss_round(entrants)
    finally:
        swiss.solve_by_score_groups = shortcut


def _weight(entrants: list[SwissEntrant], result: SwissRound) -> tuple[int, int]:
    """(score tier, standing tier) of a pairing, smaller is better, as ``swiss`` defines them."""
    position = {e.pair_id: i for i, e in enumerate(entrants)}
    score = {e.pair_id: 2 * e.score for e in entrants}
    return (sum((score[p.home] - score[p.away]) ** 2 for p in result.pairings),
            sum((position[p.home] - position[p.away]) ** 2 for p in result.pairings))


def play_bracket(pairs: int, seed: int) -> float:
    rng = random.Random(seed)
    ids = DB.prepare_bracket(pairs) if DB is not None else list(range(pairs))
    start = time.perf_counter()
    bracket = single_elimination(ids)
    store_pairings("bracket", bracket)
    while bracket.champion is None:
        results = {m.match_id: rng.choice((m.top.pair, m.bottom.pair)) for m in bracket.playable()}
        bracket = record_results(bracket, results)
        store_pairings("bracket", bracket)
    return time.perf_counter() - start


def time_bracket(pairs: int, seed: int, repeat: int) -> float:
    """Median of ``repeat`` brackets played to the champion (the setup of each is not timed)."""
    runs = []
    for _ in range(repeat):
        gc.collect()
        runs.append(play_bracket(pairs, seed))
    return statistics.median(runs)


def main() -> None:
    global DB
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-db", action="store_true", help="time the pure algorithms only")
    args = parser.parse_args()
    if not args.no_db:
        DB = Database()
        print(f"database: {DB.vendor}", file=sys.stderr)
    try:
        for pairs in (1024, 4096):
            entrants = swiss_after_rounds(pairs, 5, args.seed)
            if DB is not None:
                DB.prepare_swiss(pairs)
            check = swiss_round(entrants)
            if check.rematches or len(check.pairings) != pairs // 2:
                raise SystemExit(f"swiss_{pairs}: bad pairing ({check.rematches} rematches)")
            print(f"swiss_{pairs}_s: {time_it(partial(swiss_round, entrants), args.repeat):.3f}")
            cpu = time_it(partial(swiss_round, entrants), args.repeat, time.process_time)
            print(f"swiss_{pairs}_cpu_s: {cpu:.3f}")
            print(f"swiss_{pairs}_pairing_s: {time_it(partial(pair_swiss_round, entrants), args.repeat):.3f}")
            whole = whole_graph_pairing(entrants)
            if whole.pairings != check.pairings and _weight(entrants, whole) != _weight(entrants, check):
                raise SystemExit(f"swiss_{pairs}: the score-group shortcut lost weight")
            print(f"swiss_{pairs}_whole_graph_s: {time_it(partial(whole_graph_pairing, entrants), args.repeat):.3f}")
            avoid = clubs(entrants, args.seed)
            avoided = pair_swiss_round(entrants, avoid=avoid)
            print(f"swiss_{pairs}_avoid_s: "
                  f"{time_it(partial(pair_swiss_round, entrants, avoid=avoid), args.repeat):.3f}")
            print(f"swiss_{pairs}_avoid_unavoided: {len(avoided.unavoided)}")
        print(f"bracket_1024_s: {time_bracket(1024, args.seed, args.repeat):.3f}")
    finally:
        if DB is not None:
            DB.close()


if __name__ == "__main__":
    main()
