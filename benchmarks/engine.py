"""Engine throughput on the same random legal hands, with its baselines measured in the same run.

Run: ``[TRUCO_EVAL_DIR=DIR] .venv/bin/python benchmarks/engine.py [--hands N] [--repeat R] [--no-command]``. Prints one
figure per line as ``name: value`` (rates in hands per second of CPU time unless named ``wall``):

- ``full_replay_hands_per_s`` (baseline): every report through the general replay
  (``verdict._verdict``, :class:`~referee.engine.hand.HandReplay`), as every report went before
  the fast path; ``engine_hands_per_s``: parsed reports (dicts) through ``check_report``;
  ``engine_speedup``: their ratio; ``*_wall_hands_per_s``: the same two by wall time;
- ``engine_stdlib_json_hands_per_s`` (baseline) and ``engine_json_hands_per_s``: from a JSON line
  to the encoded verdict, with the standard library's ``json`` and with check_hand's
  :func:`referee.engine.cli.decode`/:func:`~referee.engine.cli.encode` (msgspec);
  ``decode_*_per_s``, ``encode_*_per_s``: the reading and the writing alone;
- ``python_start_s`` (baseline): CPU time of a ``python -c pass`` process;
  ``check_hand_django_hands_per_s`` (baseline): ``manage.py check_hand --no-color -``, the same code
  inside Django's management command (Django's start-up included); ``check_hand_s``,
  ``check_hand_hands_per_s``, ``check_hand_wall_s``: ``manage.py check_hand -`` as a whole process
  (start-up, reading, parsing, judging, writing) on the same hands as JSON Lines;
  ``check_hand_list_hands_per_s``: the same hands as one JSON list;
- truco-eval's baseline, only when ``TRUCO_EVAL_DIR`` names a checkout of truco-eval (not a dependency, nothing
  of it in this repository; see ``benchmarks/truco_eval_baseline.py``): ``truco_eval_full_replay_hands_per_s`` (its
  ``runner.replay.replay_events`` on the same hands), ``truco_eval_actions_only_hands_per_s`` (its engine's part
  alone), ``engine_vs_truco_eval`` (target 10) and ``check_hand_vs_truco_eval`` (target 5), with the same two
  against its actions alone; without it: ``truco_eval_full_replay_hands_per_s: not measured (TRUCO_EVAL_DIR not
  set)``. ``load_average_1min`` at the start and the end.

Targets: engine in-process >= 100,000 hands/s, ``check_hand`` >= about 50,000 hands/s
(5x the independent Python engine first measured at 10,000 hands/s on this machine), on
20,000 random hands, every check kept. Times are best of R; CPU time (``time.process_time``; the
child's user + system time for a process) is the figure to read: the machine has 2 cores shared
with other work, and wall time under that load (printed too) says more about the neighbours than
about the engine. Compare figures of one run only.

First pass (profile with ``python -m cProfile -s tottime``, 20,000 hands): 5.6 s profiled, spread
thin over the general replay's machinery (``HandReplay.on_play`` 1.0 s for 169,000 plays, ``run``
0.67 s of per-event dispatch, ``verdict._deal`` 0.6 s, ``_verdict`` 0.54 s …), no single rule
costly. Change: :mod:`referee.engine.fast` judges a cleanly played hand in one flat loop of
locals with the same checks and hands anything else to the full replay (same verdicts, checked by
Hypothesis in ``tests/referee/test_engine_fast_path.py``). Reached: engine 1.48x the full replay
(79,300 hands/s), ``check_hand`` 21,300 hands/s.

Second pass, profiled first:

- The engine: ``clean_verdict`` was 1.9 of 3.4 s profiled, then ``dict.keys`` 0.4 s (202,000
  calls: telling a play from a call by comparing the key view with frozensets), ``trick_result``
  0.36 s (41,000 calls), ``dict.get`` 0.25 s (890,000 calls), ``RuleSet.as_dict`` 0.1 s (a
  dataclass hash per verdict). Changed in :mod:`referee.engine.fast`: an event is told by one key
  and its size (``"play" in event``, ``len(event)``), its other keys read directly (a missing one
  raises, and :func:`~referee.engine.check_report` hands any exception to the full replay); the
  trick is resolved as its cards come (no list, no call); no per-seat card count (the turn order
  already bounds it: one card per seat per trick, three tricks at most); the default rules' dict
  copied from one built once (each verdict still owns all its parts: nothing is shared between
  verdicts, tested); the score and the game's end inline. After: ``clean_verdict`` 0.76 of
  0.97 s profiled, nothing else above 0.06 s: about 2.3x the full replay unprofiled.
- ``check_hand``: Django's start-up was about 0.4 s of CPU, more than judging 20,000 hands
  (``python -c pass`` is 0.02 s; importing the engine 0.04 s). Changed: the work moved to the
  pure :mod:`referee.engine.cli`; ``manage.py`` runs the plain ``check_hand FILE`` before importing
  Django (its messages from the project's catalog through the standard library's gettext), the
  management command runs the same code for every other form; both print and exit alike (tested
  process against process).
- JSON: ``json.loads`` per line about 65,000/s when the decoded reports are kept, and most of it
  the cyclic garbage collector walking the growing heap again and again (a whole JSON list; with
  the collector paused, 2.3x faster); decoding alone, nothing kept as check_hand does,
  ``decode_*_per_s``: ``json`` 220,000/s, msgspec 490,000/s. Kept, collector on: ``json``
  57,000/s, orjson 72,000/s, msgspec 76,000/s (``decode_lines`` 70,000/s: no gain from batching).
  Encoding: ``json`` 140,000/s, orjson 249,000/s, msgspec 1,200,000/s. orjson was set aside: it reads an
  integer beyond 64 bits as a float (a different report). msgspec is used for both, with the
  standard library's exact results: floats read as :class:`~referee.engine.cli.JsonFloat` and
  written as ``json`` writes them (msgspec writes ``1e16`` for ``1e+16``), ``json`` for what msgspec
  refuses (a lone surrogate escape, any error, which ``json`` then words as before); tested with
  Hypothesis in ``tests/referee/test_check_hand_cli.py``. The rules part of each verdict is no
  longer a cost worth splicing as pre-encoded text (encoding a whole verdict: about 1 µs). The
  collector is paused while a whole document is decoded (JSON makes no cycles), and in the
  process the decoded list is frozen out of its sight (:func:`gc.freeze`).

Reached (two runs, CPU time, load average 8 on the 2 cores, 20,000 hands, best of 5): full
replay 51,600 / 54,800 hands/s, engine 118,700 / 126,700 (2.30x / 2.31x); from JSON line to
encoded verdict 46,200 / 47,400 with ``json``, 82,200 / 90,000 with msgspec; ``check_hand`` as a
process 0.324 / 0.332 s of CPU for 20,000 hands (``python -c pass``: 0.02 s), 61,700 / 60,200
hands/s (the same code inside Django: 28,400 / 29,300; the hands as one JSON list: 52,200 /
53,400; wall time 0.84 / 0.78 s, the machine's load). Both targets are reached with every check
kept. What is left: ``clean_verdict`` itself (about 8 µs a hand, Python bytecode for about 10
events), and in ``check_hand`` the imports (0.06 s with the interpreter, msgspec's a third of it)
and msgspec's decoding (about 12% of the process).

Spelled rule sets and streamed input (run while six engineers shared the 2 cores: load average 14-15,
so every rate is a third to a half of the figures above; compare within one run). Added lines:
``engine_spelled_rules_hands_per_s`` /
``engine_spelled_rules_speedup``: the same hands, each spelling out its whole rule set as the scoring
app sends it (``rule_set_from`` had cost ~16 µs a report; a spelling seen before is now one look-up
returning the canonical rule set, whose ``as_dict`` is found by identity); ``check_hand_vs_full_replay``:
the process's rate over the in-process full replay's. ``check_hand`` now streams JSON Lines (memory
bounded by the longest line: 10⁶ reports with an emoji, 569 MB of input, ran in 18 MB of resident
memory, 18 s of CPU). The fast path now applies the full replay's own functions (trick_result,
raise checks, add_points, claim_matches): measured side by side with the previous inline loop in one
process, the difference was within the noise (54,600 against 49,300-57,000 hands/s).

Against truco-eval, second pass (r2; one run, load average 16-18 on the 2 cores: every figure is about half of what
an idle machine gives; compare within the run). The baseline is the one this script has always measured,
the engine's own full replay (truco-eval, the independent engine the 5x/10x targets were first stated
against, is not in this repository or its packages; the fast path's first pass measured it at about
10,000 hands/s here):

- engine in-process 87,400 hands/s against the full replay's 45,500: ``engine_speedup`` 1.92 (target 10:
  not reached; against truco-eval's recorded 10,000 hands/s it would be about 8.7x, not measured side by
  side). Profiled (cProfile, 20,000 hands): ``clean_verdict``'s own bytecode is two thirds of the time, then
  ``dict.get`` (540,000 calls), ``trick_result`` (41,000 calls), nothing else above 5%; every rule in it is
  already one call of the full replay's functions, so what is left is the interpreter's cost of ~10 events.
  line_profiler (5.1, installed only to measure) over ``clean_verdict``: no line above 9% (the call to
  ``trick_result``, the one rule of a trick), then card look-ups, masks and the per-event tests at 2-3.5%
  each; nothing to remove without copying a rule into the loop, which "no rule exists twice" forbids.
- spelled rule sets: the previous report's spelling is now compared in C (``options == last``) before any
  cache key is built (``rules._LAST``): ``rule_set_from`` on a spelled 17-option rule set halved (34 -> 17 µs
  under this load); ``engine_spelled_rules_speedup`` 1.60 (1.44 before, same load).
- ``check_hand`` as a process: 43,200 hands/s of CPU (0.46 s for 20,000, start-up included),
  ``check_hand_vs_full_replay`` 0.95 (target 5: not reached; the process also decodes and encodes JSON,
  which the in-process baseline does not).
- JSON lists are read element by element (``referee/engine/json_array.py``): ``split_list_json_array_per_s``
  172,300 reports/s (the standard library's ``raw_decode`` in C, one report at a time on a buffer of the
  report and the piece being read) against ijson 3.6's C backend (yajl2_c, installed only to measure)
  113,800 and the whole list at once ``json.loads`` 54,000 (the collector walking the growing list). The
  hand-written splitter is kept: faster here, and it reads a report exactly as a whole document does (ijson
  has its own number types and errors). ``check_hand_list_hands_per_s`` 31,400 against 43,200 for JSON Lines
  (the standard library's reader, not msgspec, and the per-report splitting).
- memory (``--memory 1000000``): 10⁶ reports with one emoji, 561 MB on a single line as a JSON list: 39 MB
  peak resident memory (23 s of CPU); the same as JSON Lines: 19 MB (19 s). Before: 5.3 GB. Again after r3's
  1 MiB block reader (2026-11-27 01:36 UTC, quiet machine): 54 MB (36.2 s of CPU) and 30 MB (33.5 s).

Third pass (r3; load average 10-15 on the 2 cores; every figure a third to a half of an idle machine's; compare
within a run; truco-eval was measured afterwards, see the last section). truco-eval, the baseline the
5x/10x targets are stated against: a repository of that name
(LuizFelipeBarbosa/truco-eval, an LLM benchmark with a Truco Paulista match engine and an event-log replay) is
in the code index, but no snapshot of it can be fetched here, so it is not run (its code is not copied either):
``truco_eval_full_replay_hands_per_s`` says so, and the ratios below stay against the engine's own full replay,
which is itself the same rules (fast path 2.2-2.3x it: the 10x target cannot be reached against it).

- ``check_hand`` as a process, profiled: of 0.6-0.8 s of CPU for 20,000 hands, start-up 0.1 s (interpreter
  0.03, msgspec 0.02-0.03 with what it imports, the engine 0.03, the catalog 0.01-0.015), judging ~0.45,
  reading ~0.1. Changes: (1) the input is decoded a 1 MiB block at a time (one C call) instead of one
  incremental decode and ``getstate`` per line; (2) ``manage.py`` reads the project's catalog (250 KB .mo) at
  the first message, not at start-up; (3) the figure is measured with bytecode kept (``check_hand_s``, as
  deployed: the image writes ``__pycache__``) beside ``check_hand_no_bytecode_s`` (this machine's environment
  sets ``PYTHONDONTWRITEBYTECODE``: every run compiled the engine again, ~0.1 s). Side by side, interleaved,
  best of 3, same hands and load: main 0.854 s, this branch 0.769 s (with bytecode); main without bytecode
  1.418 s. Django is not imported on this path (``manage.py check_hand FILE`` runs ``referee.engine.cli``
  before Django), so a separate ``python -m`` entry would save nothing measurable. The collector is no cost
  here (gc off, frozen or with a high threshold: 0.603-0.619 s, the noise).
- this run: full replay 20,688 hands/s, engine 47,074 (``engine_speedup`` 2.28), spelled rule sets 38,760
  (1.87: ~5 µs a report left of the ~19 µs first measured; the canonical-form cache is in
  ``rules.rule_set_from``); ``check_hand`` 0.652 s = 30,653 hands/s (``check_hand_vs_full_replay`` 1.48; the
  same run's no-bytecode figure 0.815 s; at the session's start, no bytecode and the old reader: 1.102 s,
  0.72). Targets 5 and 10: not reached, and not measurable as stated without truco-eval.
- the fast path line-profiled again (line_profiler 5.1, installed only to measure): no line above 3.3%;
  ``hand_start`` (now the one rule of the hand's start) is one call per hand.
- memory with the block reader (``--memory 200000``, 112 MB inputs): 52 MB peak as a list on one line,
  30 MB as JSON Lines: bounded by the block and the longest report, not by the input.

Third pass, truco-eval side by side. truco-eval's files, read from the code index, were written out of the
repository (``/tmp/truco-eval``: ``truco/`` and ``runner/replay.py``, nothing of it committed) and the run
pointed at them with ``TRUCO_EVAL_DIR`` (:class:`TrucoEvalBaseline` says how our hands are translated and
what differs: 2,030 of the 20,000 take another course there and are cut short, which favours it). Its full
replay is ``replay_events``: the match rebuilt from the logged actions, then both logs serialized and compared
byte for byte (about two thirds of its time, ``json.dumps`` with sorted keys per event);
``truco_eval_actions_only_*`` is its engine's part alone (the actions re-applied, no comparison), printed as a
stricter reading of the baseline. Three runs, ``--repeat 3``, load average 12.3 -> 4.5 on the 2 cores
(CPU time; ratios within a run):

====  =========  ============  ==========  ===========  ======  ==============  ===========  ======
run   t-e full   t-e actions   engine      ratio full   (act.)  check_hand      ratio full   (act.)
====  =========  ============  ==========  ===========  ======  ==============  ===========  ======
1     1,400/s    4,269/s       50,640/s    36.2x        11.9x   0.664 s 30,104  21.5x        7.1x
2     1,603/s    4,635/s       39,534/s    24.7x        8.5x    0.691 s 28,954  18.1x        6.3x
3     1,391/s    4,379/s       47,348/s    34.1x        10.8x   0.694 s 28,813  20.7x        6.6x
best  1,603/s    4,635/s       50,640/s    31.6x        10.9x   0.664 s 30,104  18.8x        6.5x
4     1,540/s    5,818/s       40,547/s    26.3x        7.0x    0.704 s 28,426  18.5x        4.9x
====  =========  ============  ==========  ===========  ======  ==============  ===========  ======

(best: the best of runs 1-3 for each figure; run 4, load 2.5 -> 6.4, with this final script.) Both targets
are reached against its full replay with a wide margin in every run (in-process >= 10x: 24.7-36.2x;
``check_hand`` as a process, start-up, JSON reading and writing included, >= 5x: 18.1-21.5x). Against its
actions alone (no byte comparison) they are not reached reliably: in-process 7.0-11.9x, process 4.9-7.1x,
the noise of the shared machine as large as the margin. The first reported 3.6-4.6x / 8.3x look like that
actions-only reading with the engine of before these passes. No engine change was made in this pass.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from referee.engine import check_report  # noqa: E402
from referee.engine import cli  # noqa: E402
from referee.engine.rules import DEFAULT  # noqa: E402
from referee.engine.simulate import random_report  # noqa: E402
from referee.engine.verdict import _verdict  # noqa: E402
from truco_eval_baseline import TrucoEvalBaseline  # noqa: E402


def best_time(work, items, repeat: int) -> tuple[float, float]:
    """Best CPU time and best wall time of ``work(items)`` over ``repeat`` runs."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        gc.collect()
        wall, cpu = time.perf_counter(), time.process_time()
        work(items)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return best_cpu, best_wall


def each(function):
    """Apply ``function`` to each item, keeping nothing (as check_hand does, one report at a time)."""
    def work(items):
        for item in items:
            function(item)
    return work


def validate_full(reports):
    for report in reports:
        _verdict(report)


def validate_all(reports):
    for report in reports:
        check_report(report)


def validate_json(lines):
    decode, encode = cli.decode, cli.encode
    for line in lines:
        encode(check_report(decode(line)))


def validate_stdlib_json(lines):
    decoder = json.JSONDecoder()
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    for line in lines:
        encoder.encode(check_report(decoder.decode(line))).encode("utf-8")


def process_time(command: list[str], path: str, repeat: int, bytecode: str | None = None) -> tuple[float, float]:
    """Best CPU time (the child's user + system) and best wall time of a process reading ``path``.

    ``bytecode``: a folder for the child's compiled modules (``PYTHONPYCACHEPREFIX``), filled by a first run
    not counted: the process as deployed, where Python keeps ``__pycache__`` (the image runs as root in /app).
    Without it the child inherits this environment, which may forbid bytecode files
    (``PYTHONDONTWRITEBYTECODE``: every run compiles the engine's modules again, ~0.1 s of CPU).
    """
    best_cpu = best_wall = float("inf")
    env = dict(os.environ, DJANGO_SETTINGS_MODULE=os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings"))
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = bytecode
        with open(path, "rb") as stdin:
            subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT,
                           env=env)
    for _ in range(repeat):
        with open(path, "rb") as stdin:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            wall = time.perf_counter()
            done = subprocess.run(command, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                  cwd=ROOT, env=env)
            wall = time.perf_counter() - wall
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            raise SystemExit(f"{command} exited {done.returncode}: {done.stderr.decode()[-500:]}")
        best_cpu = min(best_cpu, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        best_wall = min(best_wall, wall)
    return best_cpu, best_wall


def split_list(lines: list[str], repeat: int) -> dict[str, float]:
    """A JSON list on one line read element by element (nothing judged): check_hand's
    :func:`referee.engine.json_array.values` (the standard library's ``raw_decode`` in C, one element at a
    time) against ijson's C backend when it is installed (not a dependency), and the whole list at once."""
    import io

    from referee.engine import json_array

    text = "[" + ",".join(lines) + "]"
    data = text.encode("utf-8")
    decoder = json.JSONDecoder()

    def pieces(text: str, size: int = 1 << 20):
        for start in range(0, len(text), size):
            yield json_array.Partial(text[start:start + size])

    def ours(_):
        for _value in json_array.values(pieces(text), decoder.raw_decode):
            pass

    figures = {"split_list_json_array_per_s": best_time(ours, None, repeat)[0],
               "split_list_whole_json_loads_per_s": best_time(lambda _: json.loads(text), None, repeat)[0]}
    try:
        import ijson
    except ImportError:
        return figures

    def with_ijson(_):
        for _value in ijson.items(io.BytesIO(data), "item", use_float=True):
            pass

    figures[f"split_list_ijson_{ijson.backend}_per_s"] = best_time(with_ijson, None, repeat)[0]
    return figures


def memory(count: int, repeat_pool: int = 1000) -> None:
    """``check_hand`` on ``count`` reports with one emoji, as a JSON list on one line and as JSON
    Lines: the process's peak resident memory (``ru_maxrss``) beside the input's size. The reports are
    ``repeat_pool`` random ones over and over (each with its own ``id``), written without being held."""
    rng = random.Random(7)
    pool = [json.dumps(random_report(rng), ensure_ascii=False)[1:] for _ in range(repeat_pool)]
    with tempfile.TemporaryDirectory() as folder:
        listing, jsonl = Path(folder) / "hands.json", Path(folder) / "hands.jsonl"
        with open(listing, "w", encoding="utf-8") as one_line, open(jsonl, "w", encoding="utf-8") as lines:
            one_line.write("[")
            for n in range(count):
                tag = "mesa 🃏" if n == count // 2 else "m"
                text = f'{{"id": "{tag}-{n}", ' + pool[n % repeat_pool]
                one_line.write(("," if n else "") + text)
                lines.write(text + "\n")
            one_line.write("]")
        manage = [sys.executable, str(ROOT / "manage.py"), "check_hand"]
        print(f"memory_reports: {count}")
        for name, path in (("list_one_line", listing), ("json_lines", jsonl)):
            print(f"memory_{name}_input_mb: {path.stat().st_size / 2**20:.0f}")
            child = subprocess.Popen(manage + [str(path)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     cwd=ROOT)
            _, status, usage = os.wait4(child.pid, 0)  # this child's own figures (ru_maxrss in KiB)
            if os.waitstatus_to_exitcode(status) != 0:
                raise SystemExit(f"check_hand exited {os.waitstatus_to_exitcode(status)}: {child.stderr.read()[-500:]}")
            print(f"memory_{name}_check_hand_cpu_s: {usage.ru_utime + usage.ru_stime:.1f}")
            print(f"memory_{name}_max_rss_mb: {usage.ru_maxrss / 1024:.0f}")


def truco_eval(reports: list[dict], repeat: int) -> tuple[float, float] | None:
    """CPU seconds of truco-eval's full replay of ``reports`` and of its actions alone (best of ``repeat``
    each), or None without it."""
    folder = os.environ.get("TRUCO_EVAL_DIR")
    if not folder:
        print("truco_eval_full_replay_hands_per_s: not measured (TRUCO_EVAL_DIR not set)")
        return None
    baseline = TrucoEvalBaseline(folder)
    logs, cut = baseline.logs(reports)
    same = baseline.replay_all(logs)
    if same != len(logs):
        raise SystemExit(f"truco-eval's replay differs from its own log on {len(logs) - same} hands")
    seconds = best_time(baseline.replay_all, logs, repeat)[0]
    actions_only = best_time(baseline.apply_all, logs, repeat)[0]
    print(f"truco_eval_full_replay_hands_per_s: {len(reports) / seconds:.0f}")
    print(f"truco_eval_actions_only_hands_per_s: {len(reports) / actions_only:.0f}")
    print(f"truco_eval_events_per_hand: {sum(len(log) for _, log in logs) / len(logs):.1f}")
    print(f"truco_eval_hands_cut: {cut}")
    return seconds, actions_only


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-command", action="store_true", help="skip the check_hand process figures")
    parser.add_argument("--memory", type=int, metavar="N",
                        help="only the memory figures: check_hand on N reports with one emoji")
    args = parser.parse_args()
    if args.memory:
        memory(args.memory)
        return
    print(f"load_average_1min: {os.getloadavg()[0]:.1f}")
    rng = random.Random(args.seed)
    reports = [random_report(rng) for _ in range(args.hands)]
    for report in reports:
        fast, full = check_report(report), _verdict(report)
        if fast != full or not fast["valid"]:
            raise SystemExit("the engine and the full replay disagree, or a legal hand was judged invalid")
    lines = [json.dumps(r, ensure_ascii=False) for r in reports]
    verdicts = [check_report(r) for r in reports]
    n = len(reports)

    def rate(seconds: float) -> str:
        return f"{n / seconds:.0f}"

    full_cpu, full_wall = best_time(validate_full, reports, args.repeat)
    engine_cpu, engine_wall = best_time(validate_all, reports, args.repeat)
    print(f"engine_hands: {n}")
    print(f"full_replay_hands_per_s: {rate(full_cpu)}")
    print(f"engine_hands_per_s: {rate(engine_cpu)}")
    print(f"engine_speedup: {full_cpu / engine_cpu:.2f}")
    # The independent baseline, truco-eval's full replay, when TRUCO_EVAL_DIR names a checkout of it.
    eval_cpu, eval_actions_cpu = truco_eval(reports, args.repeat) or (None, None)
    if eval_cpu is not None:
        print(f"engine_vs_truco_eval: {eval_cpu / engine_cpu:.2f}")
        print("engine_vs_truco_eval_target: 10")
        print(f"engine_vs_truco_eval_actions_only: {eval_actions_cpu / engine_cpu:.2f}")
    # Reports that spell their rule set out, every option (as the scoring app sends them).
    spelled = [dict(r, rules=json.loads(json.dumps(DEFAULT.as_dict()))) for r in reports]
    spelled_cpu, _ = best_time(validate_all, spelled, args.repeat)
    print(f"engine_spelled_rules_hands_per_s: {rate(spelled_cpu)}")
    print(f"engine_spelled_rules_speedup: {full_cpu / spelled_cpu:.2f}")
    print(f"full_replay_wall_hands_per_s: {rate(full_wall)}")
    print(f"engine_wall_hands_per_s: {rate(engine_wall)}")
    print(f"engine_stdlib_json_hands_per_s: {rate(best_time(validate_stdlib_json, lines, args.repeat)[0])}")
    print(f"engine_json_hands_per_s: {rate(best_time(validate_json, lines, args.repeat)[0])}")
    decoder = json.JSONDecoder()
    encoder = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
    print(f"decode_stdlib_per_s: {rate(best_time(each(decoder.decode), lines, args.repeat)[0])}")
    print(f"decode_msgspec_per_s: {rate(best_time(each(cli.decode), lines, args.repeat)[0])}")
    stdlib_encode = each(lambda verdict: encoder.encode(verdict).encode())
    print(f"encode_stdlib_per_s: {rate(best_time(stdlib_encode, verdicts, args.repeat)[0])}")
    print(f"encode_msgspec_per_s: {rate(best_time(each(cli.encode), verdicts, args.repeat)[0])}")
    for name, seconds in split_list(lines, args.repeat).items():
        print(f"{name}: {rate(seconds)}")
    if args.no_command:
        return
    with tempfile.TemporaryDirectory() as folder:
        jsonl, listing = Path(folder) / "hands.jsonl", Path(folder) / "hands.json"
        jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
        listing.write_text("[" + ",\n".join(lines) + "]\n", encoding="utf-8")
        manage = [sys.executable, str(ROOT / "manage.py"), "check_hand"]
        compiled = str(Path(folder) / "pycache")
        start_cpu, start_wall = process_time([sys.executable, "-c", "pass"], str(jsonl), args.repeat)
        print(f"python_start_s: {start_cpu:.3f}")
        engine_start = [sys.executable, "-c", "import gettext, referee.engine.cli"]
        print(f"check_hand_import_s: {process_time(engine_start, str(jsonl), args.repeat, compiled)[0]:.3f}")
        django_cpu, _ = process_time(manage + ["--no-color", "-"], str(jsonl), max(1, args.repeat // 2), compiled)
        print(f"check_hand_django_hands_per_s: {rate(django_cpu)}")
        cold_cpu, _ = process_time(manage + ["-"], str(jsonl), args.repeat)
        print(f"check_hand_no_bytecode_s: {cold_cpu:.3f}")
        command_cpu, command_wall = process_time(manage + ["-"], str(jsonl), args.repeat, compiled)
        print(f"check_hand_s: {command_cpu:.3f}")
        print(f"check_hand_hands_per_s: {rate(command_cpu)}")
        print(f"check_hand_wall_s: {command_wall:.3f}")
        listing_cpu = process_time(manage + ["-"], str(listing), args.repeat, compiled)[0]
        print(f"check_hand_list_hands_per_s: {rate(listing_cpu)}")
        # The process against the baseline (the full replay, in-process, same hands, same run).
        print(f"check_hand_vs_full_replay: {full_cpu / command_cpu:.2f}")
        if eval_cpu is not None:
            print(f"check_hand_vs_truco_eval: {eval_cpu / command_cpu:.2f}")
            print("check_hand_vs_truco_eval_target: 5")
            print(f"check_hand_vs_truco_eval_actions_only: {eval_actions_cpu / command_cpu:.2f}")
        print("check_hand_vs_full_replay_target: 5")
        print(f"engine_speedup_again: {full_cpu / engine_cpu:.2f}")
        print("engine_speedup_target: 10")
    print(f"load_average_1min_end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
