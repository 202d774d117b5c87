"""The ``check_hand`` command's input as lines of text (``referee.engine.cli``): a file or standard input,
UTF-8 with an optional BOM, read ``PIECE_BYTES`` at a time so that a line longer than that comes in
pieces (:class:`~referee.engine.json_array.Partial`) and a JSON list on one line is never held whole;
the errors that end the command (:class:`CheckHandError`, exit 2 for input that cannot be read).
Pure Python, no Django.
"""
from __future__ import annotations

import codecs
import io
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

    Opening fails at once with :class:`CheckHandError` (exit 2); a line that is not UTF-8 raises
    it when that line is reached (the verdicts before it are already written).
    """
    _ = gettext
    if path == "-":
        stream = sys.stdin
        if stream is None:  # started without a standard input
            return iter(())
        source = getattr(stream, "buffer", None) or stream
        name = None  # worded when needed: the catalog is read only for a message (manage.py)
    else:
        name = path
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
    return _decoded_lines(source, name, path != "-", _)


#: Bytes read at a time: a longer line comes in pieces (:class:`~referee.engine.json_array.Partial`), so that
#: a JSON list on one line is never held whole.
PIECE_BYTES = 1 << 20


def _decoded_lines(source: Any, name: str | None, close: bool, _: Gettext) -> Iterator[str]:
    """The lines of ``source`` as text. Bytes are read ``PIECE_BYTES`` at a time and decoded a block at a time
    (one C call per block, not per line: ``benchmarks/engine.py``); a line longer than a block
    comes in :class:`Partial` pieces. A byte that is not UTF-8 raises :class:`CheckHandError` after the lines
    before it were given."""
    try:
        if isinstance(source, io.TextIOBase) or not hasattr(source, "read"):
            yield from _text_lines(iter(source))
            return
        read = getattr(source, "read1", None) or source.read
        decoder = codecs.getincrementaldecoder("utf-8-sig")()
        position = 0  # bytes read before this block
        held = ""  # the start of a line whose end is not read yet
        first = True
        while True:
            raw = read(PIECE_BYTES)
            final = not raw
            pending = len(decoder.getstate()[0])  # bytes of a character cut by the previous block
            try:
                text = decoder.decode(raw, final)
                bad = None
            except UnicodeDecodeError as exc:
                bad = exc
                valid = exc.object[:exc.start]
                text = valid.decode("utf-8-sig" if position - pending == 0 else "utf-8")
            if first and text:
                text = text.removeprefix("\ufeff")
                first = False
            if held:
                text = held + text
            lines = text.split("\n")
            held = lines.pop()
            yield from lines
            if bad is not None:
                where = _("standard input") if name is None else name
                raise CheckHandError(
                    _("Not UTF-8 text: %(name)s (invalid byte at position %(position)d).")
                    % {"name": where, "position": position - pending + bad.start},
                    EXIT_BAD_INPUT,
                ) from None
            position += len(raw)
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
