"""JSON read and written as the standard library does, at msgspec's speed (about twice as fast here, see
``benchmarks/engine.py``): msgspec reads the same values (integers of any size; floats through
:class:`JsonFloat`, from the same text), and when it refuses a text (a lone surrogate escape, a syntax
error) the standard library reads it and words the error; floats are written as the standard library
writes them (``1e+16``, ``Infinity``), and what msgspec cannot write goes through the standard library.
Pure Python; used by the ``check_hand`` command line (``referee.engine.cli``).
"""
from __future__ import annotations

import json
from typing import Any

import msgspec


class JsonFloat(float):
    """A float read from the input. msgspec writes ``1e16`` where the standard library writes
    ``1e+16``: this type makes msgspec hand it to :func:`_encode_float`, which writes it as the
    standard library does. It is a float in every other respect (``==``, ``repr``, arithmetic)."""

    __slots__ = ()


def _encode_float(value: object) -> msgspec.Raw:
    if isinstance(value, float):
        return msgspec.Raw(json.dumps(float(value)).encode("ascii"))
    raise TypeError(f"cannot encode {type(value).__name__}")


class ConstantRefused(ValueError):
    pass


def _reject_constant(name: str) -> None:
    # NaN, Infinity and -Infinity are accepted by Python's json module but are not JSON.
    raise ConstantRefused(name)


# Built once: json.loads/json.dumps with non-default options build a new coder per call.
DECODER = json.JSONDecoder(parse_constant=_reject_constant, parse_float=JsonFloat)
ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))
FAST_DECODE = msgspec.json.Decoder(float_hook=JsonFloat).decode
FAST_ENCODE = msgspec.json.Encoder(enc_hook=_encode_float).encode
FAST_ERRORS = (msgspec.DecodeError, RecursionError, ValueError)


def decode(text: str) -> Any:
    """``text`` read as JSON, exactly as the standard library reads it (NaN refused); raises as it does."""
    try:
        return FAST_DECODE(text)
    except FAST_ERRORS:
        return DECODER.decode(text)


def encode(verdict: object) -> bytes:
    """One verdict as compact UTF-8 JSON, exactly as the standard library writes it; what UTF-8
    cannot encode (a lone surrogate) escaped."""
    try:
        return FAST_ENCODE(verdict)
    except Exception:  # a lone surrogate, a type msgspec does not write: the standard library's way
        return ENCODER.encode(verdict).encode("utf-8", "backslashreplace")
