"""Engine throughput on the same random legal hands, with its baselines measured in the same run.

Run: ``.venv/bin/python benchmarks/engine.py [--hands N] [--repeat R] [--no-command]``. Prints one
figure per line as ``name: value``:

- ``full_replay_hands_per_s`` (baseline): every report through the general replay
  (``verdict._verdict``, :class:`~referee.engine.hand.HandReplay`), as every report went before
  issue 8;
- ``engine_hands_per_s``: parsed reports (dicts) through ``check_report``, best of R;
- ``engine_json_hands_per_s``: the same from JSON text (``json.loads`` + ``check_report``);
- ``check_hand_hands_per_s``: ``manage.py check_hand -`` as a whole process (start-up, Django,
  reading, parsing, judging, writing) on the same hands as JSON Lines, best of R;
- ``engine_speedup``: ``engine_hands_per_s / full_replay_hands_per_s``.

Targets (issue 8): engine in-process >= 100,000 hands/s, ``check_hand`` >= about 50,000 hands/s
(5x the independent Python engine the issue measured at 10,000 hands/s on this machine), on
20,000 random hands, every check kept. Times are CPU time (``time.process_time``; the child's
user + system time for ``check_hand``), best of R: the machine has 2 cores shared with other work,
and wall time under that load says more about the neighbours than about the engine. Compare
figures of one run only.

Profile (cProfile, 20,000 hands, before the change; ``python -m cProfile -s tottime``): 5.6 s
profiled for 20,000 hands, spread thin — ``HandReplay.on_play`` 1.0 s for 169,000 plays (method
call, ``self.`` attribute reads, the per-event checks), ``run`` 0.67 s (per-event dispatch: the
key scan for the action, the ``unknown`` key set), ``verdict._deal`` 0.6 s (parsing 12 cards
through dicts and lists), ``_verdict`` 0.54 s, ``take_card`` 0.43 s, ``close_trick`` 0.36 s,
``HandReplay.__init__`` 0.32 s; builtins (``len``, ``dict.get``, ``list.append``) another 0.6 s.
No single rule was costly: the cost was the general machinery around each event. Change:
:mod:`referee.engine.fast` judges a cleanly played hand (in-turn cards, raises in order answered
by the other team, the mão de onze decision) in one flat loop of locals with the same checks,
and hands anything else — any failed check, any violation, any event or option it does not
model — to the full replay, so every check is kept and every verdict is the same
(``tests/referee/test_engine_fast_path.py``). After it, the profile is one function,
``clean_verdict``, 1.3 s of 1.85 s, with ``dict.get`` (890,000 calls) the next item (the
profiler's per-call cost exaggerates the gain: unprofiled it is about 1.5x).

Reached (one run, CPU time, load average 13 on the 2 cores, 20,000 hands): full replay 53,500
hands/s, engine 79,300 (1.48x), with JSON parsing 55,800, ``check_hand`` as a process 21,300.
The targets (100,000 in-process; about 50,000 for ``check_hand``) are NOT reached with every check
kept. What is left: in the fast path, building the verdict (the rules dict copied per verdict,
one dict per trick) and the per-event ``dict.get``; in ``check_hand``, Django's start-up (about
0.35 s of CPU, as much as judging 20,000 hands), ``json`` decoding of each line and encoding of
each verdict (the same ``rules`` object re-encoded 20,000 times).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine import check_report  # noqa: E402
from referee.engine.simulate import random_report  # noqa: E402
from referee.engine.verdict import _verdict  # noqa: E402


def best_time(work, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        start = time.process_time()
        work(items)
        best = min(best, time.process_time() - start)
    return best


def validate_full(reports):
    for report in reports:
        _verdict(report)


def validate_all(reports):
    for report in reports:
        check_report(report)


def validate_json(lines):
    loads = json.loads
    for line in lines:
        check_report(loads(line))


def command_time(path: str, repeat: int) -> float:
    best = float("inf")
    env = dict(os.environ, DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"))
    for _ in range(repeat):
        with open(path, "rb") as stdin:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "check_hand", "-"], stdin=stdin,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, env=env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            elapsed = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"check_hand exited {done.returncode}: {done.stderr.decode()[-500:]}")
        best = min(best, elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-command", action="store_true", help="skip the check_hand process figure")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    reports = [random_report(rng) for _ in range(args.hands)]
    for report in reports:
        fast, full = check_report(report), _verdict(report)
        if fast != full or not fast["valid"]:
            raise SystemExit("the engine and the full replay disagree, or a legal hand was judged invalid")
    lines = [json.dumps(r, ensure_ascii=False) for r in reports]
    n = len(reports)
    full_rate = n / best_time(validate_full, reports, args.repeat)
    rate = n / best_time(validate_all, reports, args.repeat)
    print(f"engine_hands: {n}")
    print(f"full_replay_hands_per_s: {full_rate:.0f}")
    print(f"engine_hands_per_s: {rate:.0f}")
    print(f"engine_json_hands_per_s: {n / best_time(validate_json, lines, args.repeat):.0f}")
    print(f"engine_speedup: {rate / full_rate:.2f}")
    if not args.no_command:
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
            handle.write("\n".join(lines) + "\n")
        try:
            print(f"check_hand_hands_per_s: {n / command_time(handle.name, args.repeat):.0f}")
        finally:
            os.unlink(handle.name)


if __name__ == "__main__":
    main()
