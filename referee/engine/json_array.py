"""A JSON array read element by element: the elements read one at a time, without holding the whole array.

``check_hand`` reads a JSON list of hand reports with memory bounded by the longest report, whatever the
list's length. :func:`values` takes the input as pieces of text (lines, and pieces of a line
too long to hold: :class:`Partial`) and reads one element at a time with the standard library's
``raw_decode`` (C: the value at a position and where it ends) on a buffer that holds the current element
and the piece being read, so a report reads exactly as it does in a whole JSON document. An element that
is not JSON is passed over by :func:`_element`, which follows strings, escapes and nesting to its ``,``
or ``]`` (an element whose brackets do not balance ends at the first line that starts a new element, and a
string at its line's end: one broken element never takes the rest of the list with it); what is not an array
(text after the closing ``]``, the input ending between elements) raises :class:`ArrayError` with the
standard library's words and the position.

A library was measured first (``benchmarks/engine.py``, ``split_list_*``): ijson 3.6 with its C backend
(yajl2_c) builds the objects itself, with its own number types (``Decimal``, or float with
``use_float``), its own errors and no lone-surrogate escapes, so a report would read differently in a
list and in JSON Lines; and per report it was not faster than ``raw_decode`` here (figures in
``benchmarks/engine.py``). Pure Python, no Django.
"""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

_STRUCTURE = re.compile(r'[\[\]{}",\n]')  # outside strings: what can nest, end an element, open a string, a line
_IN_STRING = re.compile(r'["\\\n]')  # inside a string: its end, an escape, or a line end (JSON's strings hold none)
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

    An element whose brackets never close, or that closes one too many, is one broken element: it ends at
    the first line that starts a new element (see :func:`_element`), so one such element costs its own
    verdict, never the rest of a list written one report a line (or pretty-printed), and is read in
    linear time and memory bounded by the longest report.
    """
    text = _Text(pieces)
    pos = _blank_end(text, 0)
    if pos < 0 or text.buf[pos] != "[":
        raise ArrayError("Expecting value", *text.where(max(pos, 0)))
    pos = _blank_end(text, pos + 1)
    if pos >= 0 and text.buf[pos] == "]":
        _end(text, pos + 1)
        return
    scanned, closes = -1, False  # the element at pos was scanned to its end (and whether the array ends there)
    while True:
        if pos < 0 or text.buf[pos] in ",]":
            raise ArrayError("Expecting value", *text.where(len(text.buf) if pos < 0 else pos))
        try:
            if scanned >= 0:  # the element alone: its own value or error, never the next element's
                value, end = raw_decode(text.buf[:scanned], pos)
            else:
                value, end = raw_decode(text.buf, pos)
                if end == len(text.buf) and text.more(pos) >= 0:  # a number may go on in the next piece
                    pos = 0
                    continue
        except (ValueError, RecursionError) as error:
            if scanned < 0 and _incomplete(error, len(text.buf)):
                # the element goes on after what is read: find its end first (reading on), then decode it alone
                pos, scanned, closes, _resynced = _element(text, pos)  # closes None: the input ends in it
                continue
            limit = scanned if scanned >= 0 else len(text.buf)
            where = text.where(min(getattr(error, "pos", pos), limit))
            if scanned >= 0:
                end, closing = scanned, closes
            else:
                _start, end, closing, _resynced = _element(text, pos)
            scanned = -1
            yield None, error, where
            if closing is None:  # the input ended inside this element: nothing follows it
                return
            if closing:
                _end(text, end + 1)
                return
            pos = _blank_end(text, end + 1)
            continue
        scanned = -1
        after = _blank_end(text, end)
        if after < 0:
            raise ArrayError("Expecting ',' delimiter", *text.where(len(text.buf)))
        char = text.buf[after]
        if char == ",":
            yield value, None, None
            pos = _blank_end(text, after + 1)
            continue
        # a "]": the array's end when only blanks follow; else (and after anything else) the value is followed by
        # more of its element (a "]" or "}" too many): one broken element, to the next "," of the list
        where = text.where(after)
        start, end, closing, _resynced = _element(text, after)
        if closing and end == start:
            yield value, None, None
            return
        if closing is None and char == "]":  # text after the array's end
            yield value, None, None
            raise ArrayError("Extra data", where[0], where[1] + 1)
        yield None, json.JSONDecodeError("Expecting ',' delimiter", "", 0), where
        if closing is None or closing:  # the input, or the array, ended inside this element
            return
        pos = _blank_end(text, end + 1)


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


def _element(text: _Text, start: int) -> tuple[int, int, bool | None, bool]:
    """``(start, end, closing, resynced)`` of the element from ``start`` (``start`` where it is now in the buffer):
    it ends before a ``,`` (closing False) or the array's ``]`` (closing True) outside strings and nesting;
    closing None when the input ends first (``end``: the end of the input).

    An element whose brackets do not balance ends, ``resynced``, before the ``,`` that ends a line when the
    next line starts a new element: ``{`` or ``[`` at or left of the column where this element started (a list
    written one report a line, or pretty-printed). A string ends at its line's end (JSON's strings hold no
    line end), so an unclosed quote does not turn the rest of the input inside out."""
    pos, depth = start, 0
    indent = text.where(start)[1] - 1
    comma = -1  # a "," inside the element that only blanks have followed so far
    structure, in_string = _STRUCTURE.search, _IN_STRING.search
    while True:
        match = structure(text.buf, pos)
        if match is None:  # nothing more in what is read: read on, from where the search ended
            scanned = len(text.buf)
            shift = text.more(start)
            if shift < 0:
                return start, len(text.buf), None, False
            start, pos, comma = start - shift, scanned - shift, comma - shift if comma >= 0 else -1
            continue
        char, pos = match.group(), match.end()
        if char == "\n":
            if depth and comma >= 0 and not text.buf[comma + 1:match.start()].strip(" \t\r"):
                found = _peek(text, pos, start)
                if found is None:
                    return start, len(text.buf), None, False
                shift, first = found
                start, pos, comma = start - shift, pos - shift, comma - shift
                column = first - text.buf.rfind("\n", 0, first) - 1
                if text.buf[first] in "{[" and column <= indent:
                    return start, comma, False, True
            continue
        comma = -1
        if char == '"':
            opened = pos
            while True:
                match = in_string(text.buf, pos)
                if match is None or (match.group() == "\\" and match.end() >= len(text.buf)):
                    # read on: from the end of what is read, or from the escape whose character is not read yet
                    resume = len(text.buf) if match is None else match.start()
                    shift = text.more(start)
                    if shift < 0:
                        return start, len(text.buf), None, False
                    start, pos = start - shift, resume - shift
                    continue
                if match.group() == "\\":
                    pos = match.end() + 1  # the escaped character, whatever it is
                    continue
                if match.group() == "\n":  # a line end: the string was never closed, it ends here
                    pos = match.start()
                    ended = text.buf[opened:pos].rstrip(" \t\r")
                    if ended.endswith(","):  # and the line ended with a "," (inside it): the element may end there
                        comma = opened + len(ended) - 1
                    break
                pos = match.end()
                break
        elif char == "[" or char == "{":
            depth += 1
        elif depth:
            if char != ",":
                depth -= 1
            else:
                comma = match.start()
        elif char == ",":
            return start, match.start(), False, False
        elif char == "]":  # the array's end when only blanks follow it; else a "]" too many, inside this element
            found = _peek(text, pos, start)
            if found is None:
                return start, match.start(), True, False
            shift, _after = found
            start, pos = start - shift, pos - shift
        # a "}" at the top of an element is left to the element's reader, which refuses it


def _peek(text: _Text, pos: int, keep: int) -> tuple[int, int] | None:
    """The first non-blank character from ``pos`` on, reading on (keeping ``keep``): ``(shift, index)`` (``shift``:
    how far every position moved), or None at the end of the input."""
    shift = 0
    while True:
        match = _NOT_BLANK.search(text.buf, pos)
        if match is not None:
            return shift, match.start()
        scanned = len(text.buf)
        moved = text.more(keep)
        if moved < 0:
            return None
        keep, pos, shift = keep - moved, scanned - moved, shift + moved


def _end(text: _Text, pos: int) -> None:
    """Only blanks may follow the array."""
    after = _blank_end(text, pos)
    if after >= 0:
        raise ArrayError("Extra data", *text.where(after))
