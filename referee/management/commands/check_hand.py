"""``manage.py check_hand FILE``: referee hand reports from a file or standard input.

This module owns the command-line front end of the rules engine: reading the input,
splitting it into hand reports, handing each one to :func:`referee.engine.check_report`
and printing the verdicts. The rules themselves live in :mod:`referee.engine`.

Input (``FILE``, or ``-`` for standard input, UTF-8, an optional BOM is ignored):

* one hand report (a JSON object),
* a JSON list of hand reports, or
* JSON Lines: one hand report per line, blank lines skipped.

The whole text is parsed as JSON first; only when that fails is it read line by line.
A line that is not JSON gets its own invalid verdict and the other lines go on. When
no line holds a JSON object or list on its own, the input is taken to be one broken
JSON document (e.g. a pretty-printed report) and gets a single invalid verdict.

Output: one verdict per report, in input order, one compact JSON object per line,
UTF-8 with non-ASCII characters printed as they are. What UTF-8 cannot encode (a lone
surrogate such as ``"\ud800"`` echoed from a report) is written escaped (``\ud800``): a
verdict is never lost to its own text.

Exit status:

* 0 -- every report is valid;
* 1 -- at least one verdict has ``"valid": false`` (all verdicts are still printed,
  then a summary goes to standard error);
* 2 -- the input could not be read at all: missing or unreadable file, not UTF-8,
  empty input, or an empty list (nothing is printed on standard output); or an internal
  error: a verdict with ``"internal": true`` (a bug of the engine) or a failure of the
  command itself. Every verdict reached before it is still printed; never 1 for a bug;
* 141 -- standard output was closed before every verdict was written (``| head``).
"""
from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from referee.engine import check_report

EXIT_INVALID = 1
EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 141  # what a shell reports for a writer killed by SIGPIPE
# Verdicts are written in chunks of this many lines: one write call per chunk.
CHUNK_LINES = 1000


def _reject_constant(name: str) -> None:
    # NaN, Infinity and -Infinity are accepted by Python's json module but are not JSON.
    raise ValueError(_("%(constant)s is not a valid JSON value") % {"constant": name})


# Built once: json.loads/json.dumps with non-default options build a new coder per call.
_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _invalid(message: str) -> dict:
    """The verdict of something that is not a hand report at all (it is not JSON)."""
    return {"valid": False, "error": {"field": "", "message": message}}


def _json_error(line: int, exc: Exception) -> dict:
    """Invalid verdict for JSON that failed to parse; ``line`` is 1-based in the input."""
    if isinstance(exc, json.JSONDecodeError):
        message = _("Invalid JSON on line %(line)d: %(error)s (column %(column)d)") % {
            "line": line, "error": exc.msg, "column": exc.colno,
        }
    elif isinstance(exc, RecursionError):
        message = _("Invalid JSON on line %(line)d: %(error)s") % {
            "line": line, "error": _("nested too deeply"),
        }
    else:
        message = _("Invalid JSON on line %(line)d: %(error)s") % {"line": line, "error": exc}
    return _invalid(message)


class _Unparsable:
    """Stands in a report stream for input that is not JSON; carries its verdict."""

    __slots__ = ("verdict",)

    def __init__(self, verdict: dict) -> None:
        self.verdict = verdict


def iter_reports(text: str) -> Iterator[Any]:
    """Yield the hand reports in ``text``, in order; unparsable input as :class:`_Unparsable`.

    ``text`` must not be blank.
    """
    try:
        document = _DECODER.decode(text)
    except (ValueError, RecursionError) as exc:
        document_error = exc
    else:
        if isinstance(document, list):
            yield from document
        else:
            yield document
        return

    lines = text.split("\n")
    if not _has_report_line(lines):
        # Not JSON Lines: one JSON document that is broken (its line, when known).
        line = document_error.lineno if isinstance(document_error, json.JSONDecodeError) else 1
        yield _Unparsable(_json_error(line, document_error))
        return

    decode = _DECODER.decode
    for number, line in enumerate(lines, start=1):
        if not line or line.isspace():
            continue
        try:
            yield decode(line)
        except (ValueError, RecursionError) as exc:
            yield _Unparsable(_json_error(number, exc))


def _has_report_line(lines: list[str]) -> bool:
    """Whether some line holds, on its own, a JSON object or list (i.e. is JSON Lines)."""
    for line in lines:
        stripped = line.strip()
        if not stripped or stripped[0] not in "{[":
            continue
        try:
            value = _DECODER.decode(stripped)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, (dict, list)):
            return True
    return False


class Command(BaseCommand):
    help = (
        "Referee hand reports: FILE (or - for standard input) holds one report (a JSON "
        "object), a JSON list of reports, or JSON Lines. Prints one verdict per report, "
        "one compact JSON object per line, in input order. Exit status: 0 if every "
        "report is valid, 1 if any is not, 2 if the input cannot be read."
    )
    # The command only reads its input and the engine: no need to check the project.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "file", metavar="FILE",
            help=_("File with the hand reports (JSON or JSON Lines), or - for standard input."),
        )

    def handle(self, *args, **options) -> None:
        text = self._read(options["file"])
        if not text.strip():
            raise CommandError(_("The input is empty: there is no hand report to check."),
                               returncode=EXIT_BAD_INPUT)

        write, flush = self._writer()
        encode = _ENCODER.encode
        total = invalid = internal = 0
        chunk: list[str] = []
        failure: BaseException | None = None
        try:
            try:
                for report in iter_reports(text):
                    if isinstance(report, _Unparsable):
                        verdict = report.verdict
                    else:
                        verdict = check_report(report)
                    total += 1
                    if verdict.get("valid") is not True:
                        invalid += 1
                        error = verdict.get("error")
                        if error is not None and error.get("internal"):
                            internal += 1
                    chunk.append(encode(verdict))
                    if len(chunk) >= CHUNK_LINES:
                        write("\n".join(chunk) + "\n")
                        chunk.clear()
            except Exception as exc:  # a bug: keep every verdict already reached, then exit 2
                failure = exc
            if chunk:
                write("\n".join(chunk) + "\n")
            flush()
        except BrokenPipeError:
            self._silence_stdout()
            raise SystemExit(EXIT_BROKEN_PIPE) from None

        if failure is not None:
            raise CommandError(
                _("Internal error after %(total)d verdict(s): %(error)s") % {"total": total, "error": repr(failure)},
                returncode=EXIT_BAD_INPUT,
            )
        if internal:
            raise CommandError(
                _("Internal error of the rules engine in %(internal)d of %(total)d hand reports.")
                % {"internal": internal, "total": total},
                returncode=EXIT_BAD_INPUT,
            )
        if total == 0:
            raise CommandError(_("The input is an empty list: there is no hand report to check."),
                               returncode=EXIT_BAD_INPUT)
        if invalid:
            raise CommandError(
                _("Invalid hand reports: %(invalid)d of %(total)d.") % {"invalid": invalid, "total": total},
                returncode=EXIT_INVALID,
            )

    def _read(self, path: str) -> str:
        """The whole input as text; CommandError (exit 2) when it cannot be read."""
        if path == "-":
            stream = sys.stdin
            if stream is None:  # started without a standard input
                return ""
            buffer = getattr(stream, "buffer", None)
            raw: bytes | str = buffer.read() if buffer is not None else stream.read()
            name = _("standard input")
        else:
            name = path
            try:
                with open(path, "rb") as handle:
                    raw = handle.read()
            except FileNotFoundError:
                raise CommandError(_("File not found: %(path)s") % {"path": path},
                                   returncode=EXIT_BAD_INPUT) from None
            except IsADirectoryError:
                raise CommandError(_("%(path)s is a directory, not a file.") % {"path": path},
                                   returncode=EXIT_BAD_INPUT) from None
            except OSError as exc:
                raise CommandError(
                    _("Cannot read %(path)s: %(error)s") % {"path": path, "error": exc.strerror or exc},
                    returncode=EXIT_BAD_INPUT,
                ) from None
        if isinstance(raw, str):
            return raw.removeprefix("\ufeff")
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CommandError(
                _("Not UTF-8 text: %(name)s (invalid byte at position %(position)d).")
                % {"name": name, "position": exc.start},
                returncode=EXIT_BAD_INPUT,
            ) from None

    def _writer(self) -> tuple[Callable[[str], Any], Callable[[], Any]]:
        """A (write, flush) pair that puts UTF-8 on stdout whatever the locale says."""
        # OutputWrapper forwards unknown attributes to the wrapped stream.
        buffer = getattr(self.stdout, "buffer", None)
        if buffer is not None:
            self.stdout.flush()

            def write(text: str) -> None:
                buffer.write(text.encode("utf-8", "backslashreplace"))

            return write, buffer.flush

        def write_text(text: str) -> None:
            self.stdout.write(text, ending="")

        return write_text, self.stdout.flush

    @staticmethod
    def _silence_stdout() -> None:
        """After the reader went away (``| head``), keep the interpreter from complaining."""
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass
