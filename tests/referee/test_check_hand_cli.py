"""``check_hand`` without Django (``referee/engine/cli.py``, run by ``manage.py check_hand FILE``).

The fast JSON reading and writing give exactly the standard library's results (values, types, errors,
floats, lone surrogates, deep nesting); the process started by ``manage.py check_hand FILE`` prints
and exits exactly as the Django management command does (the same command with ``--no-color``,
which ``manage.py`` hands to Django); ``manage.py``'s language and catalog are the settings' ones.
"""
from __future__ import annotations

import importlib.util
import json
import math
import random
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.utils.translation import to_locale
from hypothesis import given
from hypothesis import strategies as st

from referee.engine import cli, report_input
from referee.engine.simulate import random_report

ROOT = Path(__file__).resolve().parents[2]


def standard(text: str):
    """What the standard library reads (NaN and the infinities refused, as check_hand does)."""
    def refuse(name):
        raise ValueError(name)
    return json.loads(text, parse_constant=refuse)


def same(a, b) -> bool:
    """Equal values of the same JSON types (a JsonFloat counts as a float)."""
    kind = float if isinstance(a, float) else type(a)
    if kind is not (float if isinstance(b, float) else type(b)):
        return False
    if kind is float:
        return a == b or (math.isnan(a) and math.isnan(b))
    if kind is list:
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if kind is dict:
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    return a == b


strings = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=6) | st.sampled_from(
    ["\ud800", "\udfff x", "mão", "\u2028", "\x00", '"\\', "\x7f"])
scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=2**63 - 2, max_value=2**70)
           | st.floats(allow_nan=False, allow_infinity=False)
           | st.sampled_from([1e16, 1e-7, 1e22, 5e-324, -0.0]) | strings)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(strings, inner, max_size=4),
                      max_leaves=20)


@given(value=values, ascii_only=st.booleans(), indent=st.sampled_from([None, 1]))
def test_decode_reads_what_the_standard_library_reads(value, ascii_only, indent):
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a raw lone surrogate cannot come out of UTF-8 input
        return
    assert same(cli.decode(text), standard(text))


@given(text=st.text(alphabet='{}[]",:. 0123456789eE+-truefalsn\\u\n\t\r', max_size=20))
def test_decode_refuses_what_the_standard_library_refuses(text):
    try:
        expected = standard(text)
    except (ValueError, RecursionError) as error:
        with pytest.raises(type(error)):
            cli.decode(text)
    else:
        assert same(cli.decode(text), expected)


@pytest.mark.parametrize("depth", [100, 500, 900, 950, 980, 990, 1000, 1200, 5000])
def test_deep_nesting_as_the_standard_library(depth):
    text = "[" * depth + "]" * depth
    try:
        expected = standard(text)
    except RecursionError:
        with pytest.raises(RecursionError):
            cli.decode(text)
    else:
        assert cli.decode(text) == expected


def as_read(value):
    """``value`` with its floats as check_hand reads them (JsonFloat)."""
    if isinstance(value, float):
        return cli.JsonFloat(value)
    if isinstance(value, list):
        return [as_read(item) for item in value]
    if isinstance(value, dict):
        return {key: as_read(item) for key, item in value.items()}
    return value


@given(value=values | st.floats())
def test_encode_writes_what_the_standard_library_writes(value):
    value = as_read(value)
    expected = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8", "backslashreplace")
    assert cli.encode(value) == expected


def test_floats_read_from_the_input_are_echoed_as_the_standard_library_writes_them():
    report = cli.decode('{"id": [1e16, 1e400, -1e400, 1.5, 12345678901234567890123]}')
    assert cli.encode(report) == b'{"id":[1e+16,Infinity,-Infinity,1.5,12345678901234567890123]}'


def test_every_report_is_judged_once_in_order():
    written = []
    reports = [random_report(__import__("random").Random(n)) for n in range(30)]
    text = "\n".join(json.dumps(r) for r in reports) + "\n\n"
    cli.check_text(text, written.append, lambda: None)
    lines = b"".join(written).decode("utf-8").split("\n")
    assert lines[-1] == "" and len(lines) == 31
    from referee.engine import check_report
    assert [json.loads(line) for line in lines[:-1]] == [check_report(r) for r in reports]


# -- manage.py ----------------------------------------------------------------------


def load_manage():
    spec = importlib.util.spec_from_file_location("manage_under_test", ROOT / "manage.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_manage_reads_the_settings_language_and_catalog():
    manage = load_manage()
    assert manage.CHECK_HAND_LOCALE == to_locale(django_settings.LANGUAGE_CODE)
    assert Path(manage.LOCALE_DIR) == Path(django_settings.LOCALE_PATHS[0])


def test_manage_runs_only_the_plain_form_without_django(monkeypatch):
    plain = load_manage().plain_check_hand
    monkeypatch.delenv("DJANGO_SETTINGS_MODULE", raising=False)
    monkeypatch.delenv("DJANGO_COLORS", raising=False)
    assert plain(["manage.py", "check_hand", "-"]) and plain(["manage.py", "check_hand", "hands.jsonl"])
    for argv in (["manage.py", "check_hand"], ["manage.py", "check_hand", "--help"],
                 ["manage.py", "check_hand", "-v", "2"], ["manage.py", "check_hand", "a", "b"],
                 ["manage.py", "check_hand", "--settings=config.settings", "-"], ["manage.py", "shell", "-"]):
        assert not plain(argv), argv
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "other.settings")
    assert not plain(["manage.py", "check_hand", "-"])
    monkeypatch.setenv("DJANGO_SETTINGS_MODULE", "config.settings")
    monkeypatch.setenv("DJANGO_COLORS", "nocolor")
    assert not plain(["manage.py", "check_hand", "-"])


def run(*args: str, stdin: bytes = b"") -> tuple[bytes, bytes, int]:
    """``manage.py check_hand ARGS`` as a process of its own (the plain form runs without Django)."""
    done = subprocess.run([sys.executable, str(ROOT / "manage.py"), "check_hand", *args], input=stdin,
                          capture_output=True, cwd=ROOT, timeout=120)
    return done.stdout, done.stderr, done.returncode


#: Django's side of the comparison in one process: each case is ``manage.py``'s own call,
#: ``execute_from_command_line``, with fresh standard streams, its exit status from ``SystemExit``.
#: Django starts once (about 3 s here) instead of once per case.
DJANGO_CASES = r"""
import base64, io, json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
from django.core.management import execute_from_command_line
answers = []
for argv, stdin in json.load(sys.stdin):
    out, err = io.BytesIO(), io.BytesIO()
    sys.stdin = io.TextIOWrapper(io.BytesIO(base64.b64decode(stdin)), encoding="utf-8")
    sys.stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    sys.stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        execute_from_command_line(["manage.py", "check_hand", *argv])
        code = 0
    except SystemExit as exit:
        code = exit.code if isinstance(exit.code, int) else (0 if exit.code is None else 1)
    sys.stdout.flush(), sys.stderr.flush()
    answers.append([base64.b64encode(out.getvalue()).decode(), base64.b64encode(err.getvalue()).decode(), code])
sys.__stdout__.write(json.dumps(answers))
"""


def run_django(cases: list[tuple[tuple[str, ...], bytes]]) -> list[tuple[bytes, bytes, int]]:
    """The Django command (``--no-color``: manage.py hands that form to Django) for each case."""
    import base64

    payload = json.dumps([[["--no-color", *args], base64.b64encode(stdin).decode()] for args, stdin in cases])
    done = subprocess.run([sys.executable, "-c", DJANGO_CASES], input=payload.encode(), capture_output=True,
                          cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return [(base64.b64decode(o), base64.b64decode(e), c) for o, e, c in json.loads(done.stdout)]


@pytest.mark.embedded_only  # the command touches neither the database nor the broker
def test_the_process_without_django_prints_and_exits_as_the_django_command(tmp_path):
    rng = __import__("random").Random(5)
    good = [random_report(rng) for _ in range(3)]
    inputs = {
        "valid.jsonl": "\n".join(json.dumps(r) for r in good).encode(),
        "mixed.jsonl": ("\n".join(json.dumps(r) for r in good) + '\n{oops\n"x"\n{"n": NaN}\n'
                        '{"id": "\\ud800", "x": 1e16}\n{"id": [1e16, 1e400]}\n').encode(),
        "list.json": json.dumps(good + [42]).encode(),
        "pretty.json": b'{\n  "dealer": 3,\n  "vira": \n}\n',
        "empty.json": b"  \n",
        "empty-list.json": b"[]",
        "latin1.json": '{"nota": "mão"}'.encode("latin-1"),
    }
    cases = []
    for name, data in inputs.items():
        path = tmp_path / name
        path.write_bytes(data)
        cases.append(((str(path),), b""))
    missing = str(tmp_path / "nope.json")
    cases += [((missing,), b""), ((str(tmp_path),), b""), (("-",), inputs["mixed.jsonl"])]
    plain = [run(*args, stdin=stdin) for args, stdin in cases]
    assert plain == run_django(cases)
    for (args, _), (out, _, code) in zip(cases[:len(inputs)], plain):
        assert code in (0, 1, 2) and (code == 2 or out.count(b"\n") >= 1), args
    out, err, code = plain[len(inputs)]
    assert code == 2 and out == b"" and err.startswith("CommandError: Arquivo não encontrado".encode())


def test_json_lines_are_answered_as_they_are_read():
    """Memory bounded by the longest report: verdicts are written before the input is all read."""
    report = json.dumps(random_report(random.Random(3)), ensure_ascii=False)
    written: list[bytes] = []
    read = {"lines": 0, "written_at": None}

    def lines():
        for n in range(2 * cli.CHUNK_LINES + 10):
            if written and read["written_at"] is None:
                read["written_at"] = n
            read["lines"] = n + 1
            yield report

    cli.check_stream(lines(), written.append, lambda: None)
    assert read["written_at"] is not None and read["written_at"] <= cli.CHUNK_LINES + 1
    assert b"".join(written).count(b"\n") == 2 * cli.CHUNK_LINES + 10


def test_a_line_not_utf8_is_refused_alone(tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(b'{"n": 1}\n{"nota": "m\xe3o"}\n{"n": 2}\n')
    written: list[bytes] = []
    with pytest.raises(cli.CheckHandError) as caught:
        cli.check_stream(cli.input_lines(str(path)), written.append, lambda: None, lambda r: {"valid": True})
    assert caught.value.returncode == cli.EXIT_INVALID
    verdicts = [json.loads(line) for line in b"".join(written).splitlines()]
    assert [v["valid"] for v in verdicts] == [True, False, True]
    assert verdicts[1]["error"]["code"] == "encoding"


def test_a_number_too_long_is_worded_in_the_catalog_language():
    """No "Exceeds the limit (4300 digits)" in English inside a Portuguese verdict."""
    text = '{"dealer": ' + "9" * 5000 + "}"
    written: list[bytes] = []
    with pytest.raises(cli.CheckHandError):
        cli.check_text(text, written.append, lambda: None, gettext=lambda m: "«" + m + "»")
    message = json.loads(b"".join(written))["error"]["message"]
    assert "Exceeds" not in message and "«a number with more than" in message


def test_lines_read_a_block_at_a_time_keep_characters_cut_between_blocks(tmp_path, monkeypatch):
    """For speed, the input is decoded a block of PIECE_BYTES at a time, not a line at a time; the lines,
    a character cut between two blocks, the BOM and the place of a byte that is not UTF-8 are unchanged."""
    monkeypatch.setattr(report_input, "PIECE_BYTES", 7)
    path = tmp_path / "hands.jsonl"
    lines = ['{"nota": "mão ♦ 🃏"}', "", '{"n": 2}', '{"x": "' + "é" * 20 + '"}']
    path.write_bytes(b"\xef\xbb\xbf" + "\n".join(lines).encode("utf-8"))
    assert "".join(cli.input_lines(str(path))) == "".join(lines)
    assert list(cli._whole_lines(cli.input_lines(str(path)))) == lines
    bad = b'{"n": 1}\n{"n": 2}\n{"nota": "m\xe3o"}\n'
    path.write_bytes(bad)
    lines_read = cli.input_lines(str(path))
    assert list(cli._whole_lines(lines_read)) == ['{"n": 1}', '{"n": 2}', '{"nota": "m\udce3o"}']
    assert lines_read.invalid_bytes == 1
