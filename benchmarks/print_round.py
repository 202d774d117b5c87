"""Printing a whole round: 128 tables' filled súmulas into one PDF.

Run: ``.venv/bin/python benchmarks/print_round.py [--tables N] [--repeat R] [--kind filled|blank]``.
By default it builds a fresh SQLite database in a temporary directory (``--configured-db``
uses the configured ``DATABASE_URL`` instead: it then creates, and leaves, a tournament
there). Tasks run eagerly, in-process: no broker is needed.

The round is realistic (tests/scoring/documents.py): mostly best-of-3 matches, some single
games, a mix of long (~20 hands) and short games, penalties with their articles,
corrections, signatures with a voided one; stored as rows (pairs, matches, games, hands,
penalties, versions, signatures). Prints one figure per line, ``name: value``:

- ``print_round_sumulas_per_s``: the round printed exactly as the organizer's button does it
  (``printing.jobs.start_print_job`` → the ``scoring.render_print_job`` task, eager):
  the job, the queries, the documents, the HTML (templates, QR codes), WeasyPrint, the
  progress writes and the stored file; best of R;
- ``weasyprint_only_sumulas_per_s``: WeasyPrint alone on the same HTML strings, built
  beforehand, into one PDF the same way (``scoring.pdf.render_html_pages``); best of R;
- ``print_round_overhead_pct``: ``(1 - print_round / weasyprint_only) * 100`` (target < 30);
- the same three on this process's CPU time (``*_cpu_*``): steadier when the machine is
  shared, since everything (SQLite included) runs in this process;
- ``weasyprint_naive_sumulas_per_s`` (unless ``--no-naive``): the same HTML strings laid out
  and written in one go with WeasyPrint's defaults (no chunks, collector on), once: what the
  renderer's chunking and paused garbage collector gain;
- ``print_round_pages``, ``print_round_pdf_bytes``, ``peak_rss_mb``.
"""
from __future__ import annotations

import argparse
import datetime
import gc
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def setup_django(configured_db: bool) -> tempfile.TemporaryDirectory | None:
    tmp = None
    if not configured_db:
        tmp = tempfile.TemporaryDirectory(prefix="truco-bench-")
        os.environ["TRUCO_VAR_DIR"] = tmp.name
        os.environ.pop("DATABASE_URL", None)
    os.environ.pop("CELERY_BROKER_URL", None)  # eager: the task runs in this process
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)
    return tmp


def build_round(tables: int, seed: int):
    from django.contrib.auth import get_user_model

    from tests.scoring.documents import round_documents, store_round
    from tournaments.models import Round, Tournament

    users = get_user_model().objects
    stamp = f"{time.time_ns()}"
    organizer = users.create_user(f"bench-org-{stamp}", first_name="Olga", last_name="Organizadora")
    referee = users.create_user(f"bench-ref-{stamp}", first_name="Carla", last_name="Árbitra de Assunção")
    tournament = Tournament.objects.create(
        name="Copa de Truco do Benchmark", slug=f"copa-benchmark-{stamp}", date=datetime.date(2026, 11, 21),
        organizer=organizer, best_of=3,
    )
    round_ = Round.objects.create(tournament=tournament, number=3)
    store_round(round_, round_documents(tables, seed=seed), referee=referee)
    return organizer, round_


def timed(work):
    """(wall seconds, CPU seconds of this process, result)."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def print_round_once(organizer, round_, kind: str):
    from printing.models import PrintJob
    from printing.jobs import start_print_job

    # autocommit: the job is committed at once and the eager task runs before this returns
    wall, cpu, job = timed(lambda: start_print_job(kind=kind, user=organizer, round=round_))
    job.refresh_from_db()
    if job.status != PrintJob.Status.DONE:
        raise SystemExit(f"print job {job.pk} ended {job.status}: {job.error}")
    return wall, cpu, job


def prebuilt_html(round_, kind: str) -> list[str]:
    from printing import jobs as printing
    from scoring import pdf

    sheets = printing.sheets_for(printing.ordered_matches(round_.matches.all()), kind)
    return [pdf.sheet_html(kind, sheet) for sheet in sheets]


def weasyprint_only_once(html: list[str], kind: str):
    from scoring import pdf

    return timed(lambda: pdf.render_html_pages(html, chunk_size=pdf.CHUNK_SIZES[kind]))


def weasyprint_naive_once(html: list[str]) -> float:
    from scoring import pdf

    return timed(lambda: pdf.write_pdf([pdf.layout(page) for page in html]))[0]


def page_count(data: bytes) -> int:
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=128)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--kind", choices=["filled", "blank"], default="filled")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--configured-db", action="store_true", help="use DATABASE_URL instead of a temporary SQLite")
    parser.add_argument("--no-naive", action="store_true", help="skip the naive WeasyPrint figure (slow, ~850 MB)")
    args = parser.parse_args()

    tmp = setup_django(args.configured_db)
    try:
        organizer, round_ = build_round(args.tables, args.seed)
        html = prebuilt_html(round_, args.kind)
        from scoring import pdf

        pdf.render_html_pages(html[:3], chunk_size=2)  # warm up: fonts, stylesheet, templates, pypdf
        # interleaved, best of R: the machine is shared, a slow run should not decide
        task_wall, task_cpu, weasy_wall, weasy_cpu = [], [], [], []
        job = data = None
        for _ in range(args.repeat):
            gc.collect()
            wall, cpu, job = print_round_once(organizer, round_, args.kind)
            task_wall.append(wall)
            task_cpu.append(cpu)
            gc.collect()
            wall, cpu, data = weasyprint_only_once(html, args.kind)
            weasy_wall.append(wall)
            weasy_cpu.append(cpu)
        n = len(html)
        task_rate, weasy_rate = n / min(task_wall), n / min(weasy_wall)
        task_cpu_rate, weasy_cpu_rate = n / min(task_cpu), n / min(weasy_cpu)
        job_pdf = job.file.read()
        print(f"print_round_sumulas: {n}")
        print(f"print_round_pages: {page_count(job_pdf)}")
        print(f"print_round_pdf_bytes: {len(job_pdf)}")
        print(f"print_round_sumulas_per_s: {task_rate:.2f}")
        print(f"weasyprint_only_sumulas_per_s: {weasy_rate:.2f}")
        print(f"print_round_overhead_pct: {(1 - task_rate / weasy_rate) * 100:.1f}")
        # the same on this process's CPU time: steadier on a shared machine (SQLite is in-process)
        print(f"print_round_cpu_sumulas_per_s: {task_cpu_rate:.2f}")
        print(f"weasyprint_only_cpu_sumulas_per_s: {weasy_cpu_rate:.2f}")
        print(f"print_round_cpu_overhead_pct: {(1 - task_cpu_rate / weasy_cpu_rate) * 100:.1f}")
        print(f"peak_rss_mb: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}")
        if page_count(data) != page_count(job_pdf):
            raise SystemExit("the task's PDF and WeasyPrint's differ in pages")
        if not args.no_naive:
            gc.collect()
            naive = weasyprint_naive_once(html)
            print(f"weasyprint_naive_sumulas_per_s: {n / naive:.2f}")
            print(f"peak_rss_mb_with_naive: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}")
    finally:
        if tmp is not None:
            tmp.cleanup()


if __name__ == "__main__":
    main()
