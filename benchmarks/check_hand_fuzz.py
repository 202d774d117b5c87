"""``check_hand`` on hostile lists: time, peak memory and verdicts in = out (``referee/engine/json_array.py``).

Run: ``.venv/bin/python benchmarks/check_hand_fuzz.py [--sizes 5000,20000,100000] [--fuzz 1000000]
[--timeout S] [--root DIR] [--only sizes|fuzz]``. Prints one figure per line as ``name: value``.

- ``unbalanced_N_*``: a JSON list of N reports, one a line, whose second element opens a bracket it never
  closes (``{"id": [`` + a report): the time (``_s``, wall; ``_cpu_s``, the process's user + system), the
  peak memory of the process (``_peak_mb``) and the verdicts written against the reports in
  (``_verdicts``, ``_in``). Before the list reader resynchronised at a line, everything after such an
  element was one broken element: one verdict for the rest of the list.
- ``fuzz_*``: a list of ``--fuzz`` reports (10⁶ by default) with, every 1,000 reports, an ``id`` nested
  900 levels deep, an element that opens a bracket it never closes, one that closes one too many, a string
  never closed, and a byte that is not UTF-8 inside a string: every element gets its verdict
  (``fuzz_verdicts`` = ``fuzz_in``), in time and memory linear in the input (the per-report figures).

``--root DIR``: run the ``referee/engine`` found in DIR (e.g. an older commit extracted with ``git archive``)
to compare. ``--timeout``: a run that takes longer is stopped and says ``timeout``. Pure Python, no Django:
the process is ``referee.engine.cli.main``, what ``manage.py check_hand FILE`` runs.

Figures (2 shared cores, load average 5-8: read the CPU seconds; wall time says more about the neighbours):

============================  =====================  ======================  =========================
one unbalanced element        before the linear fix  before the line resync  now
                              (7db7018^)             (main at c7b7073)
============================  =====================  ======================  =========================
5,000 reports                 5.5 s CPU, 5,002 out   0.92 s, 5,002 out       0.48 s, 5,000 out
20,000 reports                70.9 s CPU, 20,002 out 3.76 s, 20,002 out      1.44 s, 20,000 out
100,000 reports               not run (quadratic)    15.7 s, 244.6 MB peak   7.2 s, 29.5 MB peak
============================  =====================  ======================  =========================

Before the resync every report after the broken element was refused ("Extra data": the list was read
again as JSON Lines), and the rest of the list was held in memory. 10⁶-report fuzz now: 538.8 MB of input,
94.6 s CPU (94.6 µs a report), 32.1 MB peak, 1,000,000 verdicts for 1,000,000 reports. A clean list of
100,000 reports: 6.6-7.0 s CPU now, 7.0-7.3 s on main (no cost to well-formed input).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.engine.simulate import random_report  # noqa: E402

RUNNER = """
import resource, sys, time
sys.path.insert(0, sys.argv[1])
from referee.engine import cli
code = cli.main(sys.argv[2])
usage = resource.getrusage(resource.RUSAGE_SELF)
sys.stderr.write("\\nPEAK %d CPU %.3f\\n" % (usage.ru_maxrss, usage.ru_utime + usage.ru_stime))
sys.exit(code)
"""

POOL_SIZE = 200


def _pool(seed: int = 7) -> list[bytes]:
    rng = random.Random(seed)
    return [json.dumps(random_report(rng), ensure_ascii=False).encode() for _ in range(POOL_SIZE)]


def _unbalanced_open(report: bytes) -> bytes:
    return b'{"id": [' + report[1:]


def _unbalanced_close(report: bytes) -> bytes:
    return report + b"}]"


def _open_string(report: bytes) -> bytes:
    return b'{"id": "mesa 7, ' + report[1:]


def _deep(report: bytes, depth: int = 900) -> bytes:
    return b'{"id": ' + b"[" * depth + b'"x"' + b"]" * depth + b", " + report[1:]


def _invalid_byte(report: bytes) -> bytes:
    return b'{"id": "mesa \xff", ' + report[1:]


def write_list(path: Path, count: int, broken) -> None:
    """A list of ``count`` elements, one a line; ``broken(i, report)`` gives element i (or the report)."""
    pool = _pool()
    with open(path, "wb") as out:
        out.write(b"[\n")
        for i in range(count):
            out.write(broken(i, pool[i % POOL_SIZE]))
            out.write(b",\n" if i < count - 1 else b"\n]\n")


def run(path: Path, root: Path, timeout: float) -> dict:
    started = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        try:
            done = subprocess.run([sys.executable, "-c", RUNNER, str(root), str(path)], stdout=out,
                                  stderr=subprocess.PIPE, timeout=timeout)
        except subprocess.TimeoutExpired:
            return {"timeout": True, "s": time.perf_counter() - started}
        wall = time.perf_counter() - started
        out.seek(0)
        verdicts = sum(chunk.count(b"\n") for chunk in iter(lambda: out.read(1 << 20), b""))
    tail = done.stderr.decode(errors="replace").rsplit("PEAK", 1)[-1].split()
    return {"timeout": False, "s": wall, "cpu_s": float(tail[2]), "peak_mb": int(tail[0]) / 1024,
            "verdicts": verdicts, "exit": done.returncode}


def report(name: str, count: int, result: dict) -> None:
    if result["timeout"]:
        print(f"{name}_s: timeout (stopped after {result['s']:.0f} s)")
        print(f"{name}_in: {count}")
        return
    print(f"{name}_s: {result['s']:.2f}")
    print(f"{name}_cpu_s: {result['cpu_s']:.2f}")
    print(f"{name}_us_per_report: {result['cpu_s'] / count * 1e6:.1f}")
    print(f"{name}_peak_mb: {result['peak_mb']:.1f}")
    print(f"{name}_in: {count}")
    print(f"{name}_verdicts: {result['verdicts']}")
    print(f"{name}_exit: {result['exit']}")
    sys.stdout.flush()


def fuzz_element(i: int, good: bytes) -> bytes:
    kind = i % 1000
    return {1: _deep, 2: _unbalanced_open, 3: _unbalanced_close, 4: _open_string, 5: _invalid_byte}.get(
        kind, lambda r: r)(good)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="5000,20000,100000")
    parser.add_argument("--fuzz", type=int, default=1_000_000)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--root", default=str(ROOT))
    parser.add_argument("--only", choices=("sizes", "fuzz"))
    args = parser.parse_args()
    root = Path(args.root)
    print(f"engine_root: {'this checkout' if root == ROOT else root}")
    print(f"load_average_1min: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hands.json"
        if args.only != "fuzz":
            for count in (int(n) for n in args.sizes.split(",") if n):
                write_list(path, count, lambda i, r: _unbalanced_open(r) if i == 1 else r)
                report(f"unbalanced_{count}", count, run(path, root, args.timeout))
        if args.only != "sizes" and args.fuzz:
            write_list(path, args.fuzz, fuzz_element)
            print(f"fuzz_input_mb: {path.stat().st_size / 2**20:.1f}")
            report("fuzz", args.fuzz, run(path, root, args.timeout))
    print(f"load_average_1min_end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
