"""Printing súmulas: who may print what, the documents of many matches at once, and print jobs.

Owns the path from matches to PDF bytes (the rendering itself is ``scoring.pdf``):

- :func:`sheets_for` the súmula documents (``scoring.content``) of many matches, with their
  signatures, in a fixed number of queries whatever the number of matches (no N+1);
- :func:`match_pdf` one match's blank or filled súmula;
- :func:`start_print_job` checks the permission, records a :class:`~printing.models.PrintJob`
  for a round (or a list of matches) and queues ``scoring.render_print_job`` once the job is
  committed: eagerly in-process by default, on a Celery worker when a broker is configured;
- :func:`render_print_job` that task, :func:`run_print_job` its body: claims the job (:func:`claim_job`), renders
  every súmula into one PDF, writes the progress to the job as it goes (throttled), stores
  the file and marks the job done or failed with the error (a full disk in words, its partial
  file removed; nothing raised). A task delivered again after
  its worker died takes the job over once it shows no progress; only the attempt that owns
  the job stores a PDF. Stalled jobs (``printing.stalls``), retries and old PDFs: ``printing.upkeep``.

Permissions (documented in docs/printing.md): single-match downloads, blank or filled, follow
``access.can_read`` (public for tournament matches, read-only; friendlies only for their
referee and organizer). Printing a whole round, and the print jobs' pages and files, are for
the tournament's organizer (or staff / superusers).
"""
from __future__ import annotations

import errno
import logging
import time
from collections import defaultdict
from collections.abc import Iterable, Sequence
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.core.files.base import ContentFile
from django.db import transaction
from django.db.models import F, Prefetch
from django.urls import reverse
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext

from config.errors import Unavailable
from config.outage import report

from scoring import access, numbering, pdf, pdf_sheets
from scoring.content import build_document, document_as_it_stands, match_queryset, signature_document
from scoring.models import Game, HandEntry, Match, PenaltyEntry, Signature, SumulaVersion
from scoring.site import address
from tables.links import ensure_links, table_path, walkover_ids
from tables.models import TableLink

from .models import PrintJob
from .stalls import fail_if_stalled, stall_seconds

log = logging.getLogger(__name__)

#: write the job's progress at most this often (seconds); the last súmula is always written
PROGRESS_INTERVAL = 0.5
KINDS = (PrintJob.Kind.BLANK, PrintJob.Kind.FILLED)


# -- permissions ------------------------------------------------------------------------------

def _user_ok(user) -> bool:
    return user is not None and getattr(user, "is_authenticated", False) and getattr(user, "is_active", False)


def can_print_round(user, tournament) -> bool:
    """Printing whole rounds: the tournament's organizer, staff, superusers."""
    if not _user_ok(user):
        return False
    return access.manages(user, tournament)


def can_see_job(user, job: PrintJob) -> bool:
    if not _user_ok(user):
        return False
    return job.created_by_id == user.id or can_print_round(user, job.tournament)


def can_download_match(user, match: Match) -> bool:
    """A single match's súmula PDF, blank or filled: whoever may read the match."""
    return access.can_read(user, match)


def may_see_table_link(user, match: Match) -> bool:
    """Who gets the table's live link printed: the organizer and the match's referee."""
    return access.can_enter(user, match)


# -- documents of many matches ------------------------------------------------------------------

def ordered_matches(matches) -> list[Match]:
    """``matches`` (a queryset or ids) with what the document needs, by table then id."""

    ids = list(matches.values_list("pk", flat=True)) if hasattr(matches, "values_list") else [
        m.pk if isinstance(m, Match) else m for m in matches
    ]

    ensure_links([Match(pk=pk) for pk in ids])  # every printed match has its table link
    active = TableLink.objects.filter(revoked_at__isnull=True)
    matches = list(match_queryset().filter(pk__in=ids).order_by("table", "pk")
                   .prefetch_related(Prefetch("table_links", active, to_attr="active_links")))
    walkovers = walkover_ids(ids)  # a W.O. (art. 26) is printed as such, without a live link
    for match in matches:
        match.walkover = match.pk in walkovers
    return matches


def _with_table_url(document: dict, match: Match, with_link: bool = True) -> dict:
    """A blank súmula shows the QR code of its table's link: only on paper, never in a
    version's document. The path only: ``scoring.pdf`` puts it on the print's address.
    ``with_link`` False (a print for someone who may not enter the match): the
    verification page's instead, never the live link."""
    links = getattr(match, "active_links", None)
    if getattr(match, "walkover", False):   # decided by W.O. (art. 26): nothing to enter, said on the sheet
        document["walkover"] = True
    if not with_link:
        document["verify_path"] = reverse("scoring:verify-form")
    elif links:
        document["table_path"] = table_path(links[0])
    return document


def _with_numbers(sheets: list[pdf.Sheet], matches: Sequence[Match], site_url: str) -> list[pdf.Sheet]:
    """Each sheet with its match's number (``scoring.numbering``, the bracket's) and the site's address."""
    numbers = numbering.numbers_for(matches)
    return [sheet._replace(document=pdf_sheets.for_print(sheet.document, number=numbers.get(match.pk),
                                                         site_url=site_url))
            for sheet, match in zip(sheets, matches)]


def site_address(request) -> str:
    """The address QR codes printed for ``request`` point to (``scoring.site.address``); "" without one
    (then the setting, read when printing)."""

    return address(request) if request is not None else ""


def sheets_for(matches: Sequence[Match], kind: str, with_links: bool = True) -> list[pdf.Sheet]:
    """The súmula of every match as ``scoring.content.sumula_document`` builds it, loaded in bulk.

    Blank súmulas need only the header: no entries, versions nor signatures are read. Filled
    ones are the match as it stands (the current version, or a draft when it changed since),
    with every signature of every version; the renderer marks as voided those that did not
    sign this content. Six queries for any number of matches; a test checks the result
    equals ``sumula_document`` match by match.
    """

    if kind == PrintJob.Kind.BLANK:
        return [pdf.Sheet(_with_table_url(build_document(match, 1, [], games=[]), match, with_links))
                for match in matches]
    ids = [match.pk for match in matches]
    games_by_match: dict[int, list[Game]] = defaultdict(list)
    games_by_id: dict[int, Game] = {}
    for game in Game.objects.filter(match__in=ids).order_by("match_id", "number"):
        game.entries = []
        games_by_match[game.match_id].append(game)
        games_by_id[game.pk] = game
    for hand in HandEntry.objects.filter(game__match__in=ids).defer("verdict").order_by("position"):
        games_by_id[hand.game_id].entries.append(hand)
    for penalty in PenaltyEntry.objects.filter(game__match__in=ids).order_by("position"):
        games_by_id[penalty.game_id].entries.append(penalty)
    for game in games_by_id.values():
        game.entries.sort(key=lambda entry: entry.position)
    versions_by_match: dict[int, list[SumulaVersion]] = defaultdict(list)
    versions = (
        SumulaVersion.objects.filter(match__in=ids).defer("content").select_related("created_by")
        .order_by("match_id", "number")
        .prefetch_related(Prefetch("signatures", Signature.objects.select_related("player", "user")))
    )
    for version in versions:
        versions_by_match[version.match_id].append(version)
    sheets = []
    for match in matches:
        versions = versions_by_match.get(match.pk, [])
        games = games_by_match.get(match.pk, [])
        document = document_as_it_stands(match, versions, games)
        signatures = sorted(
            (s for v in versions for s in v.signatures.all()), key=lambda s: (s.signed_at, s.pk)
        )
        issued = any(v.digest == document["digest"] for v in versions)
        sheets.append(pdf.Sheet(document, [signature_document(s) for s in signatures], draft=not issued))
    return sheets


def match_pdf(match: Match, kind: str, *, site_url: str = "", with_links: bool = True) -> bytes:
    """One match's súmula PDF ("blank" or "filled"); its QR code points to ``site_url`` (else SITE_URL).
    ``with_links``: a blank one carries the table's live link (only for who may enter the match:
    :func:`may_see_table_link`), else the verification page's address."""
    matches = ordered_matches([match.pk])
    [sheet] = _with_numbers(sheets_for(matches, kind, with_links), matches, site_url)
    return pdf.write_pdf([pdf.layout(pdf.sheet_html(kind, sheet))])


def pdf_filename(kind: str, *, match: Match | None = None, job: PrintJob | None = None) -> str:
    prefix = "sumula-em-branco" if kind == PrintJob.Kind.BLANK else "sumula"
    if match is not None:
        table = f"-mesa-{match.table}" if match.table else ""
        return f"{prefix}-jogo-{match.pk}{table}.pdf"
    parts = [prefix + "s"]
    if job is not None and job.tournament_id:
        parts.append(slugify(job.tournament.slug)[:60])
    if job is not None and job.round_id:
        parts.append(f"rodada-{job.round.number}")
    parts.append(f"impressao-{job.pk}" if job is not None else "impressao")
    return "-".join(parts) + ".pdf"


# -- print jobs ---------------------------------------------------------------------------------

def start_print_job(*, kind: str, user, round=None, matches: Iterable[Match] | None = None,
                    site_url: str = "") -> PrintJob:
    """Record a print job for a round's matches (or the given matches of one tournament) and
    queue it; ``site_url`` is the address the print was asked from (the QR codes point there); raises ``PermissionDenied`` unless ``user`` may print the tournament's rounds,
    ``ValueError`` for an unknown kind or nothing to print, ``config.errors.Unavailable`` when the
    broker cannot be reached (the job is then recorded failed with that reason: nothing waits in vain)."""

    if kind not in KINDS:
        raise ValueError(f"unknown súmula kind {kind!r}")
    if round is not None:
        tournament = round.tournament
        match_list = list(round.matches.order_by("table", "pk"))
    else:
        match_list = list(matches or [])
        tournaments = {m.tournament_id for m in match_list}
        if len(tournaments) > 1:
            raise ValueError("a print job prints matches of one tournament")
        tournament = match_list[0].tournament if match_list and match_list[0].tournament_id else None
    if not match_list:
        raise ValueError("nothing to print: no matches")
    if not can_print_round(user, tournament):
        raise PermissionDenied("only the tournament's organizer prints whole rounds")
    outcome: dict[str, str] = {}
    with transaction.atomic():
        job = PrintJob.objects.create(
            kind=kind, tournament=tournament, round=round, total=len(match_list),
            created_by=user if _user_ok(user) else None, site_url=(site_url or "")[:200],
        )
        job.matches.set(match_list)
        transaction.on_commit(lambda: outcome.update(error=queue_job(job.pk)))
    if outcome.get("error"):
        job.refresh_from_db()
        raise Unavailable(outcome["error"])
    return job


def broker_unreachable_reason() -> str:
    return gettext("The print queue (the broker) could not be reached, so nothing was sent to the printing "
                   "workers. Try again in a moment; if it goes on, check that Redis is running.")


def queue_job(job_id: int) -> str:
    """Send the job's task; returns "" when sent, else why not, and then the job is failed at once with
    that reason (never left queued without a task). Eager (no broker), the task runs here
    and its errors are its own."""
    if render_print_job.app.conf.task_always_eager:
        result = render_print_job.delay(job_id)
    else:
        try:
            result = render_print_job.delay(job_id)
        except Exception as error:  # noqa: BLE001 - kombu's OperationalError, redis's ConnectionError...
            reason = broker_unreachable_reason()
            detail = f"print job {job_id} not sent ({type(error).__name__}: {str(error)[:160]})"
            if not report("print queue unreachable", detail):  # on the request's access line (and mailed)
                log.error("print queue unreachable: %s", detail)  # a worker's sweep: in its log
            now = timezone.now()
            PrintJob.objects.filter(pk=job_id, status=PrintJob.Status.QUEUED).update(
                status=PrintJob.Status.FAILED, error=reason, finished_at=now, updated_at=now)
            return reason
    # eager runs are finished by now; keep the id of real queued tasks for the logs
    PrintJob.objects.filter(pk=job_id, task_id="").update(task_id=(result.id or "")[:64])
    return ""


class _Progress:
    """Writes ``done`` to the job, at most every ``interval`` seconds (and the last one)."""

    def __init__(self, job_id: int, total: int, interval: float) -> None:
        self.job_id, self.total, self.interval = job_id, total, interval
        self.last = 0.0

    def __call__(self, done: int) -> None:
        now = time.monotonic()
        if done == self.total or now - self.last >= self.interval:
            PrintJob.objects.filter(pk=self.job_id).update(done=done, updated_at=timezone.now())
            self.last = now


#: what :func:`claim_job` found
CLAIMED, BUSY, FINISHED, MISSING = "claimed", "busy", "finished", "missing"


def claim_job(job_id: int) -> tuple[PrintJob | None, str]:
    """Take a job for this worker: a queued one, or a running one without progress for
    ``PRINT_JOB_HEARTBEAT_SECONDS`` (its worker died and the broker delivered the task
    again). Counts the attempt; returns the job and :data:`CLAIMED`, or why not: :data:`BUSY`
    (another worker is on it), :data:`FINISHED`, :data:`MISSING`."""
    now = timezone.now()
    fresh_since = now - timedelta(seconds=settings.PRINT_JOB_HEARTBEAT_SECONDS)
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None:
            return None, MISSING
        if job.status == PrintJob.Status.RUNNING and job.updated_at >= fresh_since:
            return job, BUSY
        if job.status not in (PrintJob.Status.QUEUED, PrintJob.Status.RUNNING):
            return job, FINISHED
        if job.status == PrintJob.Status.RUNNING:
            log.warning("print job %s: taken over after %s without progress (attempt %s)",
                        job_id, now - job.updated_at, job.attempts + 1)
        PrintJob.objects.filter(pk=job_id).update(
            status=PrintJob.Status.RUNNING, started_at=now, done=0, updated_at=now, attempts=F("attempts") + 1,
        )
    return PrintJob.objects.select_related("tournament", "round").get(pk=job_id), CLAIMED


def _still_mine(job: PrintJob):
    """The job's row, locked, if this attempt still owns it (not failed as stalled meanwhile,
    nor taken over by another worker); else ``None``. Call inside a transaction."""
    return PrintJob.objects.select_for_update().filter(
        pk=job.pk, status=PrintJob.Status.RUNNING, attempts=job.attempts
    ).first()


def run_print_job(job_id: int, *, progress_interval: float = PROGRESS_INTERVAL) -> PrintJob | None:
    """Render a queued job's súmulas into one PDF; the job ends ``done`` with its file or
    ``failed`` with the error. Returns the job (``None`` if it does not exist) with
    ``job.claim`` saying what :func:`claim_job` found. A job another worker is on, or that is
    finished, is left alone.

    Safe to run twice (a task delivered again after its worker died): the PDF is stored, and
    the job marked done, only by the attempt that still owns the job, in one transaction.
    """
    job, claim = claim_job(job_id)
    if job is None:
        return None
    job.claim = claim
    if claim != CLAIMED:
        return job
    try:
        matches = ordered_matches(job.matches.all())
        sheets = _with_numbers(sheets_for(matches, job.kind), matches, job.site_url)
        total = len(sheets)
        if total != job.total:
            PrintJob.objects.filter(pk=job.pk).update(total=total)
            job.total = total
        data = pdf.render_many(sheets, job.kind, on_progress=_Progress(job.pk, total, progress_interval))
    except Exception as error:  # noqa: BLE001 - any failure is the job's, recorded for the organizer
        return _fail(job, error)
    stored = ""
    try:
        with transaction.atomic():
            if _still_mine(job) is None:
                log.warning("print job %s: attempt %s finished after losing the job; its PDF is dropped",
                            job_id, job.attempts)
                job.refresh_from_db()
                job.claim = BUSY
                return job
            stored = _store_pdf(job, data)
            job.file.name = stored
            job.status = PrintJob.Status.DONE
            job.done = job.total
            job.finished_at = timezone.now()
            PrintJob.objects.filter(pk=job.pk).update(
                status=job.status, done=job.done, file=stored, finished_at=job.finished_at,
                updated_at=job.finished_at,
            )
    except Exception as error:  # noqa: BLE001 - a full disk, a store that failed: the job's, never raised
        if stored:  # written, but the job's row was not: no file that no job names
            _remove_file(job.file.storage, stored)
        job.file.name = ""
        return _fail(job, error)
    return job


def _store_pdf(job: PrintJob, data: bytes) -> str:
    """Store the job's PDF and return its name; a write that fails (a full disk) leaves no partial file."""
    storage = job.file.storage
    name = storage.get_available_name(job.file.field.generate_filename(job, pdf_filename(job.kind, job=job)))
    try:
        return storage.save(name, ContentFile(data))
    except BaseException:
        _remove_file(storage, name)  # the name was free: what is there now is this write's partial file
        raise


def _remove_file(storage, name: str) -> None:
    try:
        storage.delete(name)
    except Exception as error:  # noqa: BLE001 - the failure being recorded matters more
        log.error("print file %s could not be removed: %s: %s", name, type(error).__name__, error)


def failure_message(error: BaseException) -> str:
    """What the organizer reads on the job's page: a disk error in words, any other error as it is."""
    if isinstance(error, OSError) and error.errno in (errno.ENOSPC, errno.EDQUOT):
        return gettext("The server's disk is full: the PDF could not be saved (nothing half written was kept). "
                       "Free some space on the server, or ask its administrator to, then try again.")
    if isinstance(error, OSError):
        return gettext("The PDF could not be saved: %(reason)s. Try again; if it happens again, tell the "
                       "server's administrator.") % {"reason": error.strerror or str(error) or type(error).__name__}
    return f"{type(error).__name__}: {error}"


def _fail(job: PrintJob, error: BaseException) -> PrintJob:
    """Record ``error`` on the job this attempt owns (failed, with a message); never raises."""
    if isinstance(error, OSError):  # the machine's trouble, said in one line: no traceback to read
        log.error("print job %s failed: %s: %s", job.pk, type(error).__name__, error)
    else:
        log.exception("print job %s failed", job.pk)
    job.status = PrintJob.Status.FAILED
    job.error = failure_message(error)[:4000]
    job.finished_at = timezone.now()
    try:
        PrintJob.objects.filter(pk=job.pk, status=PrintJob.Status.RUNNING, attempts=job.attempts).update(
            status=job.status, error=job.error, finished_at=job.finished_at, updated_at=job.finished_at
        )
    except Exception as db_error:  # noqa: BLE001 - the database is down too: the stall sweep fails it later
        log.error("print job %s: its failure could not be recorded: %s: %s",
                  job.pk, type(db_error).__name__, str(db_error)[:200])
    return job


@shared_task(name="scoring.render_print_job", ignore_result=True, bind=True, acks_late=True,
             reject_on_worker_lost=True, max_retries=None)
def render_print_job(self, job_id: int) -> str | None:
    """Render a print job's súmulas into one PDF (:func:`run_print_job`).

    Failures are recorded on the job (status ``failed`` and the error), not raised: the
    organizer reads them on the job's page. Returns the job's final status. Delivered
    again while another worker still makes progress on the job, it checks back later
    (until that one finishes, or the job shows no progress and this one takes it over).
    """
    job = run_print_job(job_id)
    if job is None:
        return None
    if getattr(job, "claim", None) == BUSY and not self.request.is_eager:
        retries_left = stall_seconds() // max(1, settings.PRINT_JOB_HEARTBEAT_SECONDS) + 2
        if self.request.retries < retries_left:
            raise self.retry(countdown=settings.PRINT_JOB_HEARTBEAT_SECONDS)
    return job.status


def job_status(job: PrintJob) -> dict:
    """What the progress page polls (a job that stalled is marked failed first)."""
    fail_if_stalled(job)
    return {
        "id": job.pk,
        "kind": job.kind,
        "status": job.status,
        "done": job.done,
        "total": job.total,
        "percent": job.percent,
        "error": job.error,
        "finished": job.is_finished,
    }
