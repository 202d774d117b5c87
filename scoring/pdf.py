"""Súmula PDFs: WeasyPrint, server side, A4, in Brazilian Portuguese.

Owns turning a súmula document (docs/sumula-document.md) into paper; what each sheet says (its
words, its QR codes, its template's context) is ``scoring.pdf_sheets``:

- :func:`render_blank` the sheet a table fills in by pen: the match header, one grid of
  numbered hand rows per game, a penalties box, the result and the signature lines (art. 25);
- :func:`render_filled` the record of a match: every hand and *tento* with the running score,
  corrections, result, signatures (voided ones marked), the digest as text and as a QR code
  pointing at the verification page;
- :func:`render_many` many súmulas into ONE PDF (a round), calling back after each one.

It knows nothing about models: callers hand it documents and signatures (plain dicts).
The parsed stylesheet and WeasyPrint's font configuration are built once per thread and
reused by every render. For many súmulas each one is laid out on its own (measured faster
than one big HTML, and every súmula keeps its own "page x of y"), chunks of them are written
with WeasyPrint's ``Document.copy`` and the chunks joined with pypdf, which bounds the memory
(see :func:`render_html_pages` and benchmarks/print_round.py).
"""
from __future__ import annotations

import gc
import io
import threading
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from django.conf import settings
from django.template.loader import get_template
from django.utils import translation

from .pdf_sheets import PDF_LANGUAGE, blank_context, filled_context

CSS_PATH = Path(settings.BASE_DIR) / "templates" / "scoring" / "pdf" / "sumula.css"
BLANK_TEMPLATE = "scoring/pdf/blank.html"
FILLED_TEMPLATE = "scoring/pdf/filled.html"
#: súmulas laid out, then written, together by render_many: a laid out filled súmula holds
#: ~5 MB of boxes, a blank one ~20 MB (its empty grids); either way a chunk stays ~100 MB
CHUNK_SIZES = {"blank": 6, "filled": 16}
CHUNK_SIZE = 16


class Sheet(NamedTuple):
    """One súmula to print: its document, the signatures beside it, and whether the document
    is a draft (changed since the last issued version: its digest verifies nowhere yet)."""

    document: dict
    signatures: Sequence[dict] = ()
    draft: bool = False


# -- shared WeasyPrint state ----------------------------------------------------------------

_local = threading.local()


def _weasy():
    """(FontConfiguration, CSS) of this thread, built on first use and then reused.

    WeasyPrint objects are not documented as thread-safe, so a threaded web server gets one
    pair per thread; a Celery worker or the benchmark has a single one.
    """
    state = getattr(_local, "state", None)
    if state is None:
        from weasyprint import CSS
        from weasyprint.text.fonts import FontConfiguration

        font_config = FontConfiguration()
        css = CSS(string=CSS_PATH.read_text(encoding="utf-8"), font_config=font_config)
        state = _local.state = (font_config, css)
    return state


# -- HTML and PDF -------------------------------------------------------------------------------

def blank_html(document: dict) -> str:
    """One blank súmula as a standalone HTML page (pt-BR)."""
    with translation.override(PDF_LANGUAGE):
        return get_template(BLANK_TEMPLATE).render(blank_context(document))


def filled_html(document: dict, signatures: Iterable[dict] = (), draft: bool = False) -> str:
    """One filled súmula as a standalone HTML page (pt-BR)."""
    with translation.override(PDF_LANGUAGE):
        return get_template(FILLED_TEMPLATE).render(filled_context(document, signatures, draft))


def sheet_html(kind: str, sheet: Sheet) -> str:
    if kind == "blank":
        return blank_html(sheet.document)
    if kind == "filled":
        return filled_html(sheet.document, sheet.signatures, sheet.draft)
    raise ValueError(f"unknown súmula kind {kind!r}")


def layout(html: str):
    """Lay one HTML page out with the shared stylesheet and fonts: a WeasyPrint Document."""
    from weasyprint import HTML

    font_config, css = _weasy()
    return HTML(string=html, base_url=str(settings.BASE_DIR)).render(stylesheets=[css], font_config=font_config)


def write_pdf(documents: Sequence) -> bytes:
    """The pages of laid out WeasyPrint documents, in order, as one PDF (WeasyPrint's
    ``Document.copy``: fonts are embedded once)."""
    if len(documents) == 1:
        return documents[0].write_pdf()
    pages = [page for document in documents for page in document.pages]
    return documents[0].copy(pages).write_pdf()


def concatenate(parts: Sequence[bytes]) -> bytes:
    """PDF files joined into one, in order (pypdf)."""
    if len(parts) == 1:
        return parts[0]
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for part in parts:
        writer.append(PdfReader(io.BytesIO(part)))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@contextmanager
def _collector_paused():
    """Python's cyclic garbage collector off while a chunk is laid out.

    WeasyPrint allocates millions of objects, most of them in reference cycles; the
    collector's repeated passes over a growing heap cost ~30 % of the layout time. With it
    paused, the garbage of a chunk is freed by one collection after the chunk is written.
    Process-wide, and only for the batch path (``render_html_pages``, which collects after
    every chunk itself), never for a single render.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def render_html_pages(
    html_pages: Iterable[str],
    on_progress: Callable[[int], None] | None = None,
    chunk_size: int = CHUNK_SIZE,
) -> bytes:
    """Standalone HTML pages laid out one by one and joined into ONE PDF.

    Each page is laid out on its own (faster than one big HTML: 3.6 against 2.0-2.5 súmulas/s
    measured, and every súmula numbers its own pages); ``chunk_size`` of them are written
    together with WeasyPrint's ``Document.copy``, and the chunks are then joined (pypdf).
    A laid out súmula holds 5 to 20 MB of boxes: chunks keep a 128-table round around
    250 MB instead of ~850 MB (filled) or ~2.5 GB (blank). ``on_progress(done)`` is called
    after each page is laid out.
    """
    parts: list[bytes] = []
    batch: list = []
    with _collector_paused():
        for done, html in enumerate(html_pages, start=1):
            batch.append(layout(html))
            if on_progress is not None:
                on_progress(done)
            if len(batch) >= chunk_size:
                parts.append(write_pdf(batch))
                batch = []
                gc.collect()  # the chunk's boxes are cyclic garbage now: free them at once
        if batch:
            parts.append(write_pdf(batch))
            batch = []
            gc.collect()
    if not parts:
        raise ValueError("nothing to print")
    return concatenate(parts)


def render_blank(document: dict) -> bytes:
    """The blank súmula of a match, to fill in by pen: PDF bytes."""
    return write_pdf([layout(blank_html(document))])


def render_filled(document: dict, signatures: Iterable[dict] = (), *, draft: bool = False) -> bytes:
    """The filled súmula of a match with its signatures: PDF bytes. ``draft`` marks a
    document that is not an issued version (its digest does not verify)."""
    return write_pdf([layout(filled_html(document, signatures, draft))])


def render_many(
    sheets: Iterable[Sheet | tuple],
    kind: str,
    on_progress: Callable[[int], None] | None = None,
    chunk_size: int | None = None,
) -> bytes:
    """Many súmulas of one ``kind`` ("blank" or "filled") in ONE PDF, in order.

    ``sheets`` are :class:`Sheet` or plain ``(document, signatures[, draft])`` tuples
    (signatures ignored for blanks); it may be a generator, consumed one súmula at a time.
    ``on_progress(done)`` is called after each súmula is laid out. Each súmula starts on a
    new page and numbers its own pages.
    """
    if kind not in ("blank", "filled"):
        raise ValueError(f"unknown súmula kind {kind!r}")
    chunk_size = chunk_size or CHUNK_SIZES[kind]
    return render_html_pages((sheet_html(kind, Sheet(*sheet)) for sheet in sheets), on_progress, chunk_size)
