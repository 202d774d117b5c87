"""The ``check_hand`` command's input as lines of text (``referee.engine.cli``): a file or standard input,
UTF-8 with an optional BOM, read ``PIECE_BYTES`` at a time so that a line longer than that comes in
pieces (:class:`~referee.engine.json_array.Partial`) and a JSON list on one line is never held whole;
the errors that end the command (:class:`CheckHandError`, exit 2 for input that cannot be read).
Pure Python, no Django.
"""
from __future__ import annotations

import codecs
import io
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .json_array import Partial

EXIT_INVALID = 1
EXIT_BAD_INPUT = 2
EXIT_BROKEN_PIPE = 141  # what a shell reports for a writer killed by SIGPIPE


Gettext = Callable[[str], str]


def _identity(message: str) -> str:
    return message


class CheckHandError(Exception):
    """What ends the command with a message on standard error and an exit status (Django's CommandError)."""

    def __init__(self, message: str, returncode: int) -> None:
        super().__init__(message)
        self.returncode = returncode


def input_lines(path: str, gettext: Gettext = _identity) -> Iterator[str]:
    """The input's lines as text, one at a time, without their ``\n`` (an optional BOM dropped).

    Opening fails at once with :class:`CheckHandError` (exit 2); a byte that is not UTF-8 is kept as its
    escape character (:class:`DecodedLines`), and only the report holding it is refused.
    """
    _ = gettext
    if path == "-":
        stream = sys.stdin
        if stream is None:  # started without a standard input
            return iter(())
        source = getattr(stream, "buffer", None) or stream
    else:
        try:
            source = open(path, "rb")  # noqa: SIM115 (closed by the generator below)
        except FileNotFoundError:
            raise CheckHandError(_("File not found: %(path)s") % {"path": path}, EXIT_BAD_INPUT) from None
        except IsADirectoryError:
            raise CheckHandError(_("%(path)s is a directory, not a file.") % {"path": path},
                                 EXIT_BAD_INPUT) from None
        except OSError as exc:
            raise CheckHandError(
                _("Cannot read %(path)s: %(error)s") % {"path": path, "error": exc.strerror or exc}, EXIT_BAD_INPUT,
            ) from None
    return DecodedLines(source, path != "-")


#: Bytes read at a time: a longer line comes in pieces (:class:`~referee.engine.json_array.Partial`), so that
#: a JSON list on one line is never held whole.
PIECE_BYTES = 1 << 20


#: What an invalid byte becomes in the text read (``surrogateescape``: U+DC80 to U+DCFF), so that only the
#: line or report holding it is refused (:func:`holds_invalid_bytes`), never the batch.
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


class DecodedLines:
    """The input's lines (an iterator), with ``invalid_bytes``: how many bytes that are not UTF-8 were read so
    far. Each is kept in the text as its escape character; the report that holds one is refused."""

    def __init__(self, source: Any, close: bool) -> None:
        self.invalid_bytes = 0
        self._lines = self._decoded(source, close)

    def __iter__(self) -> DecodedLines:
        return self

    def __next__(self) -> str:
        return next(self._lines)

    def _decoded(self, source: Any, close: bool) -> Iterator[str]:
        """Bytes are read ``PIECE_BYTES`` at a time and decoded a block at a time (one C call per block, not per
        line: ``benchmarks/engine.py``); a line longer than a block comes in :class:`Partial` pieces."""
        try:
            if isinstance(source, io.TextIOBase) or not hasattr(source, "read"):
                yield from _text_lines(iter(source))
                return
            read = getattr(source, "read1", None) or source.read
            decoder = codecs.getincrementaldecoder("utf-8-sig")("surrogateescape")
            held = ""  # the start of a line whose end is not read yet
            first = True
            while True:
                raw = read(PIECE_BYTES)
                final = not raw
                text = decoder.decode(raw, final)
                if first and text:
                    text = text.removeprefix("\ufeff")
                    first = False
                if "\udc80" <= max(text, default="\x00"):  # something at or past U+DC80: maybe an invalid byte
                    self.invalid_bytes += len(_ESCAPED_BYTE.findall(text))
                if held:
                    text = held + text
                lines = text.split("\n")
                held = lines.pop()
                yield from lines
                if final:
                    if held:
                        yield Partial(held)  # the input ends without a line end
                    return
                if len(held) >= PIECE_BYTES:
                    yield Partial(held)  # more of this line follows
                    held = ""
        finally:
            if close:
                source.close()


def holds_invalid_bytes(value: object) -> bool:
    """Whether a report read from the input holds a byte that was not UTF-8 (in a text, or a key)."""
    todo = [value]
    while todo:
        item = todo.pop()
        kind = type(item)
        if kind is str:
            if _ESCAPED_BYTE.search(item):
                return True
        elif kind is list:
            todo.extend(item)
        elif kind is dict:
            todo.extend(item.keys())
            todo.extend(item.values())
    return False


def _text_lines(source: Iterator[str]) -> Iterator[str]:
    """The lines of a text stream (its lines end with ``\\n``)."""
    first = True
    for line in source:
        if first:
            line = line.removeprefix("\ufeff")
            first = False
        if line.endswith("\n"):
            yield line[:-1]
        elif line:
            yield Partial(line)


def _whole_lines(pieces: Iterator[str]) -> Iterator[str]:
    """The input's lines, each :class:`Partial` piece joined with the rest of its line."""
    held: list[str] = []
    for piece in pieces:
        if type(piece) is Partial:
            held.append(piece)
            continue
        if held:
            held.append(piece)
            piece = "".join(held)
            held.clear()
        yield piece
    if held:
        yield "".join(held)
