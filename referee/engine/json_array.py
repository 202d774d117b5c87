"""A JSON array read element by element: the elements read one at a time, without holding the whole array.

``check_hand`` reads a JSON list of hand reports with memory bounded by the longest report, whatever the
list's length. :func:`values` takes the input as pieces of text (lines, and pieces of a line
too long to hold: :class:`Partial`) and reads one element at a time with the standard library's
``raw_decode`` (C: the value at a position and where it ends) on a buffer that holds the current element
and the piece being read, so a report reads exactly as it does in a whole JSON document. An element that
is not JSON is passed over by :func:`_element`, which follows strings, escapes and nesting to its ``,``
or ``]``; what is not an array (a missing ``,``, text after the closing ``]``, the input ending inside it)
raises :class:`ArrayError` with the standard library's words and the position.

A library was measured first (``benchmarks/engine.py``, ``split_list_*``): ijson 3.6 with its C backend
(yajl2_c) builds the objects itself, with its own number types (``Decimal``, or float with
``use_float``), its own errors and no lone-surrogate escapes, so a report would read differently in a
list and in JSON Lines; and per report it was not faster than ``raw_decode`` here (figures in
``benchmarks/engine.py``). Pure Python, no Django.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

_STRUCTURE = re.compile(r'[\[\]{}",]')  # outside strings: what can nest, end an element or open a string
_IN_STRING = re.compile(r'["\\]')  # inside a string: its end or an escape
_NOT_BLANK = re.compile(r"[^ \t\n\r]")  # JSON's whitespace


class Partial(str):
    """A piece of a line with more of the same line after it (no line end follows it)."""

    __slots__ = ()


class ArrayError(ValueError):
    """The input is not one JSON array: ``msg`` in the standard library's words, at ``lineno``, ``colno``."""

    def __init__(self, msg: str, lineno: int, colno: int) -> None:
        super().__init__(f"{msg}: line {lineno} column {colno}")
        self.msg, self.lineno, self.colno = msg, lineno, colno


class _Text:
    """The input as one text held only from the current element on: ``buf`` and its position."""

    def __init__(self, pieces: Iterator[str]) -> None:
        self.pieces = pieces
        self.buf = ""
        self.line = 1  # the line of buf[0]
        self.column = 0  # the column (0-based) of buf[0] in its line
        self.read = 0  # characters read so far (the caller's measure of what it holds)

    def more(self, keep: int) -> int:
        """Read on, dropping what is before ``keep``; the shift of every position (-1: the end).

        At least as much is read as is kept (one piece when little is kept): an element that goes on and on
        (a bracket never closed) is copied and decoded again a logarithmic number of times, never once per
        line, so any input is read in linear time."""
        wanted = max(1, len(self.buf) - keep)
        parts: list[str] = []
        got = 0
        for piece in self.pieces:
            text = piece if type(piece) is Partial else piece + "\n"
            parts.append(text)
            got += len(text)
            if got >= wanted:
                break
        if not parts:
            return -1
        dropped = self.buf[:keep]
        newlines = dropped.count("\n")
        if newlines:
            self.line += newlines
            self.column = keep - dropped.rfind("\n") - 1
        else:
            self.column += keep
        self.buf = self.buf[keep:] + "".join(parts)
        self.read += got
        return keep

    def where(self, index: int) -> tuple[int, int]:
        """Line and column (1-based, as the standard library counts) of ``buf[index]``."""
        newline = self.buf.rfind("\n", 0, index)
        if newline < 0:
            return self.line, self.column + index + 1
        return self.line + self.buf.count("\n", 0, index), index - newline


def values(pieces: Iterator[str], raw_decode: Callable[[str, int], tuple[Any, int]]
           ) -> Iterator[tuple[Any, Exception | None, tuple[int, int] | None]]:
    """Each element of the JSON array in ``pieces``, read by ``raw_decode`` (``json.JSONDecoder.raw_decode``:
    the value at a position and where it ends, in C): ``(value, None, None)``, or ``(None, error, where)`` for
    an element that is not JSON (``where``: the error's line and column in the input; the element's end is found by
    :func:`_element` and the next one goes on). Raises :class:`ArrayError` when the input is not one array.
    """
    text = _Text(pieces)
    pos = _blank_end(text, 0)
    if pos < 0 or text.buf[pos] != "[":
        raise ArrayError("Expecting value", *text.where(max(pos, 0)))
    pos = _blank_end(text, pos + 1)
    if pos >= 0 and text.buf[pos] == "]":
        _end(text, pos + 1)
        return
    while True:
        if pos < 0 or text.buf[pos] in ",]":
            raise ArrayError("Expecting value", *text.where(len(text.buf) if pos < 0 else pos))
        try:
            value, end = raw_decode(text.buf, pos)
            if end == len(text.buf) and text.more(pos) >= 0:  # a number may go on in the next piece
                pos = 0
                continue
        except (ValueError, RecursionError) as error:
            if _incomplete(error, len(text.buf)) and text.more(pos) >= 0:
                pos = 0  # read on and decode the element again
                continue
            where = text.where(getattr(error, "pos", pos))
            start, end, closing = _element(text, pos)
            if start < 0:
                raise ArrayError("Expecting ',' delimiter", *text.where(len(text.buf))) from None
            yield None, error, where
            if closing:
                _end(text, end + 1)
                return
            pos = _blank_end(text, end + 1)
            continue
        yield value, None, None
        after = _blank_end(text, end)
        if after < 0:
            raise ArrayError("Expecting ',' delimiter", *text.where(len(text.buf)))
        char = text.buf[after]
        if char == "]":
            _end(text, after + 1)
            return
        if char != ",":
            raise ArrayError("Expecting ',' delimiter", *text.where(after))
        pos = _blank_end(text, after + 1)


def _incomplete(error: Exception, size: int) -> bool:
    """Whether ``error`` may only say that the element goes on after what is read (a string, an escape or a
    value cut at the end of the piece)."""
    position = getattr(error, "pos", None)
    return position is not None and (position >= size - 6 or error.msg.startswith("Unterminated string"))


def _blank_end(text: _Text, pos: int) -> int:
    """The position of the first non-blank character from ``pos`` on (reading more), -1 at the end."""
    buf = text.buf
    if pos < len(buf) and buf[pos] not in " \t\n\r":  # most often: the "," right after a report
        return pos
    while True:
        match = _NOT_BLANK.search(text.buf, pos)
        if match:
            return match.start()
        shift = text.more(len(text.buf))
        if shift < 0:
            return -1
        pos = 0


def _element(text: _Text, start: int) -> tuple[int, int, bool]:
    """``(start, end, closing)`` of the element from ``start``: it ends before a ``,`` (closing False) or the
    array's ``]`` (closing True) outside strings and nesting; start -1 when the input ends first."""
    pos, depth = start, 0
    structure, in_string = _STRUCTURE.search, _IN_STRING.search
    while True:
        match = structure(text.buf, pos)
        if match is None:  # nothing more in what is read: read on, from where the search ended
            scanned = len(text.buf)
            shift = text.more(start)
            if shift < 0:
                return -1, -1, False
            start, pos = start - shift, scanned - shift
            continue
        char, pos = match.group(), match.end()
        if char == '"':
            while True:
                match = in_string(text.buf, pos)
                if match is None or (match.group() == "\\" and match.end() >= len(text.buf)):
                    # read on: from the end of what is read, or from the escape whose character is not read yet
                    resume = len(text.buf) if match is None else match.start()
                    shift = text.more(start)
                    if shift < 0:
                        return -1, -1, False
                    start, pos = start - shift, resume - shift
                    continue
                if match.group() == "\\":
                    pos = match.end() + 1  # the escaped character, whatever it is
                    continue
                pos = match.end()
                break
        elif char == "[" or char == "{":
            depth += 1
        elif depth:
            if char != ",":
                depth -= 1
        elif char == ",":
            return start, match.start(), False
        elif char == "]":
            return start, match.start(), True
        # a "}" at the top of an element is left to the element's reader, which refuses it


def _end(text: _Text, pos: int) -> None:
    """Only blanks may follow the array."""
    after = _blank_end(text, pos)
    if after >= 0:
        raise ArrayError("Extra data", *text.where(after))
