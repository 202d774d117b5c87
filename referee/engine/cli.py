"""``check_hand FILE``: referee hand reports from a file or standard input, without Django.

This module owns the command-line front end of the rules engine: reading the input, splitting it
into hand reports, handing each one to :func:`referee.engine.check_report`, writing the verdicts
and the exit status. ``manage.py check_hand FILE`` runs :func:`main` before Django starts (the
plain form only: ``manage.py`` hands every other form, ``--help``, ``--settings`` …, to Django);
the management command ``referee/management/commands/check_hand.py`` runs the same
:func:`check_text` inside Django (``call_command``, its other options). Pure Python, no Django:
messages go through the ``gettext`` the caller gives (Django's in the command; the project's
catalog, read by the standard library, under ``manage.py``).

Input (``FILE``, or ``-`` for standard input, UTF-8, an optional BOM is ignored):

* one hand report (a JSON object),
* a JSON list of hand reports, or
* JSON Lines: one hand report per line, blank lines skipped.

The input is read as a stream of lines (:func:`check_stream`; a line longer than ``PIECE_BYTES`` comes in
pieces, never held whole unless it must be): when its first non-blank line is a JSON object on its own,
the input is JSON Lines (or that one report) and each line is read, judged and answered before the next
is read, so memory is bounded by the longest line whatever the input's length. When it starts with
``[`` it is a JSON list, read element by element (:mod:`referee.engine.json_array`): a list longer than
``WHOLE_LIST_CHARS`` is judged report by report as it is read, memory bounded by the longest report
(10⁶ reports on one line with an emoji: see ``benchmarks/engine.py --memory``); a shorter one, or one that
is not a well-formed list by then, is read whole as any document. Any other input (a pretty-printed
report, a broken first line) is read whole and parsed as JSON first; only when that fails is it read line
by line. A line that is not JSON gets its own invalid verdict and the other lines go on (a report of a
long list too). When no line holds a JSON object or list on its own, the input is taken to be one broken
JSON document (e.g. a pretty-printed report) and gets a single invalid verdict.

Output: one verdict per report, in input order, one compact JSON object per line,
UTF-8 with non-ASCII characters printed as they are. What UTF-8 cannot encode (a lone
surrogate such as ``"\\ud800"`` echoed from a report) is written escaped (``\\ud800``): a
verdict is never lost to its own text.

Exit status:

* 0 -- every report is valid;
* 1 -- at least one verdict has ``"valid": false`` (all verdicts are still printed,
  then a summary goes to standard error);
* 2 -- the input could not be read at all: missing or unreadable file,
  empty input, or an empty list (nothing is printed on standard output); or an internal
  error: a verdict with ``"internal": true`` (a bug of the engine) or a failure of the
  command itself. Every verdict reached before it is still printed; never 1 for a bug;
* 141 -- standard output was closed before every verdict was written (``| head``).

JSON is read and written with msgspec, with the standard library's exact results
(:mod:`referee.engine.json_codec`, ``tests/referee/test_check_hand_cli.py``); the input's lines come
from :mod:`referee.engine.report_input`.
"""
from __future__ import annotations

import gc
import itertools
import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any


from . import json_array
from .json_array import Partial
# the JSON codec and the input's lines are modules of their own; their names used here (and by the tests
# through this module: JsonFloat, _whole_lines)
from .json_codec import DECODER, FAST_DECODE, FAST_ERRORS, ConstantRefused, JsonFloat, decode, encode  # noqa: F401
from .report_input import (EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INVALID, CheckHandError, Gettext,  # noqa: F401
                           _identity, _whole_lines, holds_invalid_bytes, input_lines)
from .errors import ReportError, printable
from .messages import relocalize
from .verdict import check_report

# Verdicts are written in chunks of this many lines: one write call per chunk.
CHUNK_LINES = 1000

def localized(check: Callable[[Any], dict], lang: str) -> Callable[[Any], dict]:
    """``check`` whose verdicts have their violations and notes in ``lang`` (``check_hand --lang en``)."""
    def check_in(report: Any) -> dict:
        return relocalize(check(report), lang)
    check_in.lang = lang  # type: ignore[attr-defined]  (the language of a refusal made outside ``check``)
    return check_in


def gettext_noop(message: str) -> str:
    """Marks a message for the catalog (makemessages), translated where it is shown."""
    return message


#: The standard library's JSON errors, put through the catalog: no English inside a Portuguese verdict.
JSON_ERRORS = {message: message for message in (
    gettext_noop("Expecting value"),
    gettext_noop("Expecting ',' delimiter"),
    gettext_noop("Expecting ':' delimiter"),
    gettext_noop("Expecting property name enclosed in double quotes"),
    gettext_noop("Unterminated string starting at"),
    gettext_noop("Invalid control character at"),
    gettext_noop("Invalid \\escape"),
    gettext_noop("Invalid \\uXXXX escape"),
    gettext_noop("Extra data"),
)}


def _invalid(message: str, line: int) -> dict:
    """The verdict of something that is not a hand report at all (it is not JSON): the shape of the engine's
    refusals (``error_messages``), code ``json``, its message already in the command's language."""
    return {"valid": False, "error": {"field": "", "code": "json", "article": "", "params": {"line": line},
                                      "message": message}}


def _not_utf8(report: Any, _: Gettext) -> dict:
    """The verdict of a report holding bytes that are not UTF-8: its own refusal (code ``encoding``), its ``id``
    echoed (the bytes escaped) so the referee finds it."""
    verdict = {"valid": False, "error": {
        "field": "", "code": "encoding", "article": "", "params": {},
        "message": _("This hand report holds bytes that are not UTF-8 text: it cannot be read.")}}
    if type(report) is dict and "id" in report:
        verdict["id"] = printable(report["id"])
    return verdict


def _json_error(line: int, exc: Exception, _: Gettext) -> dict:
    """Invalid verdict for JSON that failed to parse; ``line`` is 1-based in the input."""
    if isinstance(exc, json.JSONDecodeError):
        # an error the catalog does not know is not shown in English inside a Portuguese verdict
        error = _(JSON_ERRORS[exc.msg]) if exc.msg in JSON_ERRORS else _("not valid JSON")
        message = _("Invalid JSON on line %(line)d: %(error)s (column %(column)d)") % {
            "line": line, "error": error, "column": exc.colno,
        }
    elif isinstance(exc, RecursionError):
        message = _("Invalid JSON on line %(line)d: %(error)s") % {
            "line": line, "error": _("nested too deeply"),
        }
    elif isinstance(exc, ConstantRefused):
        message = _("Invalid JSON on line %(line)d: %(error)s") % {
            "line": line, "error": _("%(constant)s is not a valid JSON value") % {"constant": exc.args[0]},
        }
    elif str(exc).startswith("Exceeds the limit"):  # int("9" * 5000): Python's limit on a number's digits
        message = _("Invalid JSON on line %(line)d: %(error)s") % {
            "line": line, "error": _("a number with more than %(digits)d digits") % {"digits": sys.get_int_max_str_digits()},
        }
    else:
        message = _("Invalid JSON on line %(line)d: %(error)s") % {"line": line, "error": _("not valid JSON")}
    return _invalid(message, line)


class Unparsable:
    """Stands in a report stream for input that is not JSON; carries its verdict."""

    __slots__ = ("verdict",)

    def __init__(self, verdict: dict) -> None:
        self.verdict = verdict


def iter_reports(text: str, gettext: Gettext = _identity, freeze: bool = False) -> Iterator[Any]:
    """Yield the hand reports in ``text``, in order; unparsable input as :class:`Unparsable`.

    ``text`` must not be blank. ``freeze``: a whole document read is moved out of the cyclic
    collector's sight (:func:`gc.freeze`; reference counting still frees it), for a process that
    ends after it; never in a long-lived one (a Django process).
    """
    try:
        document = _decode_document(text)
    except (ValueError, RecursionError) as exc:
        document_error = exc
    else:
        if freeze:
            gc.freeze()
        if isinstance(document, list):
            yield from document
        else:
            yield document
        return

    lines = text.split("\n")
    if not _has_report_line(lines):
        # Not JSON Lines: one JSON document that is broken (its line, when known).
        line = document_error.lineno if isinstance(document_error, json.JSONDecodeError) else 1
        yield Unparsable(_json_error(line, document_error, gettext))
        return

    yield from _json_lines(iter(lines), 1, gettext)


def _decode_document(text: str) -> Any:
    """The whole input as one JSON document, the cyclic garbage collector paused meanwhile: JSON
    makes no reference cycles, and on a big list the collector would only walk the new objects
    again and again (a third of the time of a 20,000-report list)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return decode(text)
    finally:
        if collecting:
            gc.enable()


def _has_report_line(lines: list[str]) -> bool:
    """Whether some line holds, on its own, a JSON object or list (i.e. is JSON Lines)."""
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped[0] not in "{[":
            continue
        try:
            value = decode(stripped)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, (dict, list)):
            return True
    return False


#: A JSON list of at most this many characters is read whole (as any document); a longer one is judged
#: element by element as it is read, memory bounded by the longest report.
WHOLE_LIST_CHARS = 1 << 20


def iter_stream(lines: Iterator[str], gettext: Gettext = _identity, freeze: bool = False) -> Iterator[Any]:
    """The hand reports of an input given as lines (see the module docstring): JSON Lines one line at a
    time; a JSON list element by element (:func:`_list_reports`); anything else read whole and handed to
    :func:`iter_reports`. An input with no non-blank line raises :class:`CheckHandError` (exit 2)."""
    _ = gettext
    lines = iter(lines)
    read: list[str] = []
    first = None
    for first in lines:
        read.append(first)
        if first and not first.isspace():
            break
    else:
        raise CheckHandError(_("The input is empty: there is no hand report to check."), EXIT_BAD_INPUT)
    if first.lstrip(" \t\r").startswith("["):
        yield from _list_reports(itertools.chain(read, lines), gettext, freeze)
        return
    lines = _whole_lines(itertools.chain(read, lines))
    read = []
    for first in lines:
        read.append(first)
        if first and not first.isspace():
            break
    number = len(read)
    try:
        value = FAST_DECODE(first)
    except FAST_ERRORS:
        value = None
    if type(value) is not dict:  # a list, a pretty-printed report, a broken first line: read it whole
        read.extend(lines)
        yield from iter_reports("\n".join(read), gettext, freeze)
        return
    read.clear()
    for line in lines:  # the next non-blank line says: one report, or JSON Lines
        number += 1
        if line and not line.isspace():
            break
    else:
        yield value
        return
    yield value
    del value
    yield from _json_lines(itertools.chain((line,), lines), number, gettext)


def _list_reports(pieces: Iterator[str], gettext: Gettext, freeze: bool) -> Iterator[Any]:
    """The reports of a JSON list, each element read and judged on its own (memory: the longest report).

    Until :data:`WHOLE_LIST_CHARS` are read the reports are held and the text kept: a list that ends by then
    well formed gives its reports, and one that is not a well-formed list is read whole as before
    (:func:`iter_reports`: the same verdicts as for any document, a broken list falls back to JSON Lines).
    Past that the reports are judged as they come; an element that is not JSON gets its own invalid
    verdict and the next goes on; text that breaks the list itself ends it with one invalid verdict.
    """
    kept: list[str] | None = []
    size = [0]

    def keep(source: Iterator[str]) -> Iterator[str]:
        for piece in source:
            if kept is not None:
                kept.append(piece)
                size[0] += len(piece)
            yield piece

    pieces = iter(pieces)
    held: list[Any] = []
    try:
        for report, error, where in json_array.values(keep(pieces), DECODER.raw_decode):
            if error is not None:
                if isinstance(error, json.JSONDecodeError):  # its place in the input, not in the buffer read
                    error.lineno, error.colno = where
                report = Unparsable(_json_error(where[0], error, gettext))
            if kept is None:
                yield report
                continue
            held.append(report)
            if size[0] > WHOLE_LIST_CHARS:
                kept = None  # judged as they come from now on
                yield from held
                held.clear()
    except json_array.ArrayError as exc:
        if kept is not None:  # a short input that is not a well-formed list: as any document, read whole
            held.clear()
            text = "".join(piece if type(piece) is Partial else piece + "\n" for piece in kept)
            kept.clear()
            rest = "".join(piece if type(piece) is Partial else piece + "\n" for piece in pieces)
            yield from iter_reports(text + rest, gettext, freeze)
            return
        error = json.JSONDecodeError(exc.msg, "", 0)
        error.lineno, error.colno = exc.lineno, exc.colno
        yield Unparsable(_json_error(exc.lineno, error, gettext))
        return
    yield from held


def _json_lines(lines: Iterator[str], first: int, gettext: Gettext) -> Iterator[Any]:
    """Each line of JSON Lines read on its own, numbered from ``first`` on; blank lines skipped."""
    fast = FAST_DECODE
    for number, line in enumerate(lines, start=first):
        try:
            report = fast(line)
        except FAST_ERRORS:  # a blank line, or msgspec refuses: the standard library reads it or words why
            if not line or line.isspace():
                continue
            try:
                report = DECODER.decode(line)
            except (ValueError, RecursionError) as exc:
                report = Unparsable(_json_error(number, exc, gettext))
        yield report


def check_text(text: str, write: Callable[[bytes], Any], flush: Callable[[], Any],
               check: Callable[[Any], dict] = check_report, gettext: Gettext = _identity,
               freeze: bool = False) -> None:
    """Judge every report of ``text`` and write the verdicts (``write`` takes UTF-8 bytes).

    Returns when every report is valid; raises :class:`CheckHandError` (exit 1 or 2) after writing
    every verdict reached otherwise, ``SystemExit(141)`` when standard output was closed.
    ``freeze``: see :func:`iter_reports`.
    """
    _ = gettext
    if not text.strip():
        raise CheckHandError(_("The input is empty: there is no hand report to check."), EXIT_BAD_INPUT)
    _check_all(iter_reports(text, gettext, freeze), write, flush, check, gettext)


def check_stream(lines: Iterator[str], write: Callable[[bytes], Any], flush: Callable[[], Any],
                 check: Callable[[Any], dict] = check_report, gettext: Gettext = _identity,
                 freeze: bool = False) -> None:
    """:func:`check_text` on an input given as lines (:func:`input_lines`): JSON Lines are read, judged
    and written one line at a time, memory bounded by the longest line. ``freeze``: see :func:`iter_reports`."""
    _check_all(iter_stream(lines, gettext, freeze), write, flush, check, gettext, lines)


def _check_all(reports: Iterator[Any], write: Callable[[bytes], Any], flush: Callable[[], Any],
               check: Callable[[Any], dict], gettext: Gettext, source: object = None) -> None:
    """Judge and write every report; ``source``: the input's lines, whose ``invalid_bytes`` (bytes that are not
    UTF-8, :class:`~referee.engine.report_input.DecodedLines`) make the reports holding one refused."""
    _ = gettext
    total = invalid = internal = 0
    stop: CheckHandError | None = None
    chunk: list[bytes] = []
    failure: BaseException | None = None
    try:
        try:
            for report in reports:
                if type(report) is not Unparsable and getattr(source, "invalid_bytes", 0) \
                        and holds_invalid_bytes(report):
                    report = Unparsable(_not_utf8(report, _))
                if type(report) is Unparsable:
                    verdict = report.verdict
                    line = encode(verdict)
                else:
                    verdict, line = _judged(report, check)
                total += 1
                if verdict.get("valid") is not True:
                    invalid += 1
                    error = verdict.get("error")
                    if error is not None and error.get("internal"):
                        internal += 1
                chunk.append(line)
                if len(chunk) >= CHUNK_LINES:
                    chunk.append(b"")
                    write(b"\n".join(chunk))
                    chunk.clear()
        except CheckHandError as exc:  # the input: empty, or a line not UTF-8; the verdicts reached are kept
            stop = exc
        except Exception as exc:  # a bug: keep every verdict already reached, then exit 2
            failure = exc
        if chunk:
            chunk.append(b"")
            write(b"\n".join(chunk))
        flush()
    except BrokenPipeError:
        _silence_stdout()
        raise SystemExit(EXIT_BROKEN_PIPE) from None

    if stop is not None:
        raise stop
    if failure is not None:
        raise CheckHandError(
            _("Internal error after %(total)d verdict(s): %(error)s") % {"total": total, "error": repr(failure)},
            EXIT_BAD_INPUT,
        )
    if internal:
        raise CheckHandError(
            _("Internal error of the rules engine in %(internal)d of %(total)d hand reports.")
            % {"internal": internal, "total": total},
            EXIT_BAD_INPUT,
        )
    if total == 0:
        raise CheckHandError(_("The input is an empty list: there is no hand report to check."), EXIT_BAD_INPUT)
    if invalid:
        raise CheckHandError(
            _("Invalid hand reports: %(invalid)d of %(total)d.") % {"invalid": invalid, "total": total},
            EXIT_INVALID,
        )


def _judged(report: Any, check: Callable[[Any], dict]) -> tuple[dict, bytes]:
    """The verdict on one report and its line. Whatever judging or writing it raises is that report's
    refusal (nested too deeply, or an internal error), never the end of the batch."""
    try:
        verdict = check(report)
        return verdict, encode(verdict)
    except RecursionError:
        error = ReportError("", "report.nested").as_dict()
    except Exception as exc:  # a bug of the engine: this report's internal verdict (exit 2), the next goes on
        error = {**ReportError("", "report.internal", {"error": type(exc).__name__}).as_dict(), "internal": True}
    verdict = relocalize({"valid": False, "error": error}, getattr(check, "lang", "pt"))
    return verdict, encode(verdict)


def _silence_stdout() -> None:
    """After the reader went away (``| head``), keep the interpreter from complaining."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _error_line(message: str) -> str:
    """``CommandError: message``, red and bold on a terminal, as Django's management commands print it."""
    line = f"CommandError: {message}\n"
    if sys.stdout.isatty() and sys.stderr.isatty():
        return f"\x1b[31;1m{line}\x1b[0m"
    return line


def main(path: str, gettext: Gettext = _identity) -> int:
    """``check_hand FILE`` as a process: the exit status (see the module docstring)."""
    try:
        buffer = sys.stdout.buffer
        # A list of 20,000 reports read at once: the collector would walk it three times for nothing.
        check_stream(input_lines(path, gettext), buffer.write, buffer.flush, check_report, gettext, freeze=True)
    except CheckHandError as error:
        sys.stderr.write(_error_line(str(error)))
        sys.stderr.flush()
        return error.returncode
    return 0
