"""Tests of ``manage.py check_hand``: input forms, one verdict per report, exit codes.

The engine is still a stub, so these check the plumbing (what is read, in which order,
what is printed and with which exit status), not the rules' outcomes.
"""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.management.commands import check_hand as command_module

ROOT = Path(__file__).resolve().parents[2]

REPORT = {
    "dealer": 3,
    "vira": "4-ouros",
    "score": [10, 7],
    "events": [{"seat": 0, "play": "3-espadas"}, {"seat": 1, "play": "K-ouros", "covered": True}],
}


@pytest.fixture(autouse=True)
def english():
    """Messages in their English source form, whatever catalogs exist."""
    with translation.override("en"):
        yield


@pytest.fixture
def echo_engine(monkeypatch):
    """Replace the engine by one that echoes the report, to follow each one through."""
    def fake(report):
        valid = isinstance(report, dict) and not report.get("bad")
        return {"valid": valid, "report": report}

    monkeypatch.setattr(command_module, "check_report", fake)


def run(*args: str) -> tuple[list[dict], int]:
    """Run the command; return its verdicts (one per stdout line) and its exit status."""
    out = io.StringIO()
    code = 0
    try:
        call_command("check_hand", *args, stdout=out)
    except CommandError as exc:
        code = exc.returncode
    text = out.getvalue()
    assert text == "" or text.endswith("\n")
    # JSON Lines are split on "\n" only: str.splitlines() also splits on U+0085, U+2028...
    return [json.loads(line) for line in text.split("\n")[:-1]], code


def write(tmp_path: Path, text: str, name: str = "hands.json") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def set_stdin(monkeypatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(text.encode("utf-8")), encoding="utf-8"))


# -- input forms --------------------------------------------------------------------


def test_one_report_in_a_file(tmp_path):
    verdicts, code = run(write(tmp_path, json.dumps(REPORT, indent=2)))
    assert len(verdicts) == 1
    assert isinstance(verdicts[0]["valid"], bool)
    assert code == (0 if verdicts[0]["valid"] else 1)


def test_standard_input(monkeypatch):
    set_stdin(monkeypatch, json.dumps(REPORT))
    verdicts, _code = run("-")
    assert len(verdicts) == 1
    assert "valid" in verdicts[0]


def test_standard_input_as_a_text_stream(monkeypatch, echo_engine):
    monkeypatch.setattr(sys, "stdin", io.StringIO('{"n": 1}\n{"n": 2}\n'))
    verdicts, code = run("-")
    assert [v["report"] for v in verdicts] == [{"n": 1}, {"n": 2}]
    assert code == 0


def test_list_of_reports_keeps_order_and_flags_non_objects(tmp_path):
    verdicts, code = run(write(tmp_path, json.dumps([REPORT, 42, "x", REPORT])))
    assert len(verdicts) == 4
    for bad in (verdicts[1], verdicts[2]):
        assert bad["valid"] is False
        assert set(bad["error"]) == {"field", "code", "article", "params", "message"}
    assert code == 1


def test_list_order_is_kept(tmp_path, echo_engine):
    reports = [{"n": n} for n in range(2500)]  # more than one output chunk
    verdicts, code = run(write(tmp_path, json.dumps(reports)))
    assert [v["report"] for v in verdicts] == reports
    assert code == 0


def test_json_lines_with_a_broken_line(tmp_path, echo_engine):
    text = '{"n": 1}\n\n{"n": 2\n   \n{"n": 3}\n42\n'
    verdicts, code = run(write(tmp_path, text, "hands.jsonl"))
    assert len(verdicts) == 4  # blank lines skipped
    assert verdicts[0]["report"] == {"n": 1}
    assert verdicts[1]["valid"] is False
    assert verdicts[1]["error"]["field"] == ""
    assert verdicts[1]["error"]["message"].startswith("Invalid JSON on line 3: ")
    assert verdicts[2]["report"] == {"n": 3}
    assert verdicts[3] == {"valid": False, "report": 42}
    assert code == 1


def test_json_lines_with_the_real_engine(tmp_path):
    text = "\n".join([json.dumps(REPORT), "not json", '"x"', json.dumps(REPORT)]) + "\n"
    verdicts, code = run(write(tmp_path, text, "hands.jsonl"))
    assert len(verdicts) == 4
    assert "line 2" in verdicts[1]["error"]["message"]
    assert verdicts[2]["valid"] is False and "error" in verdicts[2]
    assert code == 1


def test_json_lines_with_windows_line_ends_and_bom(tmp_path, echo_engine):
    path = tmp_path / "hands.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"n": 1}\r\n{"n": 2}\r\n')
    verdicts, code = run(str(path))
    assert [v["report"] for v in verdicts] == [{"n": 1}, {"n": 2}]
    assert code == 0


def test_json_lines_of_one_line_is_one_report(tmp_path, echo_engine):
    verdicts, _code = run(write(tmp_path, '{"n": 1}\n'))
    assert [v["report"] for v in verdicts] == [{"n": 1}]


def test_broken_pretty_printed_document_gets_one_verdict(tmp_path, echo_engine):
    text = '{\n  "dealer": 3,\n  "score": [\n    10,\n    7\n  ],\n  "vira": \n}\n'
    verdicts, code = run(write(tmp_path, text))
    assert len(verdicts) == 1
    assert verdicts[0]["valid"] is False
    assert verdicts[0]["error"]["message"].startswith("Invalid JSON on line 8: ")
    assert code == 1


def test_nan_is_not_json(tmp_path, echo_engine):
    verdicts, code = run(write(tmp_path, '{"n": 1}\n{"n": NaN}\n'))
    assert verdicts[0]["report"] == {"n": 1}
    assert verdicts[1]["valid"] is False and "line 2" in verdicts[1]["error"]["message"]
    assert code == 1


# -- output -------------------------------------------------------------------------


def test_output_is_compact_utf8_json(monkeypatch, tmp_path):
    monkeypatch.setattr(command_module, "check_report", lambda report: {"valid": True, "note": "mão de onze"})
    out = io.StringIO()
    call_command("check_hand", write(tmp_path, json.dumps(REPORT)), stdout=out)
    assert out.getvalue() == '{"valid":true,"note":"mão de onze"}\n'


def test_output_to_a_binary_backed_stream_is_utf8(monkeypatch, tmp_path):
    monkeypatch.setattr(command_module, "check_report", lambda report: {"valid": True, "note": "mão"})
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="ascii")  # the locale's encoding must not matter
    call_command("check_hand", write(tmp_path, "[{}, {}]"), stdout=stream)
    stream.flush()
    assert raw.getvalue().decode("utf-8") == '{"valid":true,"note":"mão"}\n' * 2


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.dictionaries(st.text(max_size=5), st.integers() | st.text(max_size=5), max_size=4),
                min_size=1, max_size=20))
def test_list_and_json_lines_give_the_same_verdicts(monkeypatch, reports):
    monkeypatch.setattr(command_module, "check_report", lambda report: {"valid": True, "report": report})
    set_stdin(monkeypatch, json.dumps(reports, ensure_ascii=False))
    from_list, _ = run("-")
    set_stdin(monkeypatch, "\n".join(json.dumps(r, ensure_ascii=False) for r in reports) + "\n")
    from_lines, _ = run("-")
    assert from_list == from_lines == [{"valid": True, "report": r} for r in reports]


# -- exit status and input errors ---------------------------------------------------


def test_exit_zero_when_all_valid(tmp_path, echo_engine):
    verdicts, code = run(write(tmp_path, '[{"n": 1}, {"n": 2}]'))
    assert len(verdicts) == 2 and code == 0


def test_exit_one_when_any_invalid_after_printing_all(tmp_path, echo_engine):
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("check_hand", write(tmp_path, '[{"n": 1}, {"bad": true}, {"n": 3}]'), stdout=out)
    assert caught.value.returncode == 1
    assert "Invalid hand reports: 1 of 3." in str(caught.value)
    assert len(out.getvalue().splitlines()) == 3


def test_missing_file(tmp_path):
    missing = tmp_path / "nope.json"
    with pytest.raises(CommandError, match="File not found") as caught:
        call_command("check_hand", str(missing), stdout=io.StringIO())
    assert str(missing) in str(caught.value)
    assert caught.value.returncode == 2


def test_directory_is_not_a_file(tmp_path):
    with pytest.raises(CommandError) as caught:
        call_command("check_hand", str(tmp_path), stdout=io.StringIO())
    assert caught.value.returncode == 2


@pytest.mark.parametrize("text", ["", "   \n\n  \t\n"])
def test_empty_file(tmp_path, text):
    out = io.StringIO()
    with pytest.raises(CommandError, match="empty") as caught:
        call_command("check_hand", write(tmp_path, text), stdout=out)
    assert caught.value.returncode == 2
    assert out.getvalue() == ""


def test_empty_standard_input(monkeypatch):
    set_stdin(monkeypatch, "")
    with pytest.raises(CommandError, match="empty") as caught:
        call_command("check_hand", "-", stdout=io.StringIO())
    assert caught.value.returncode == 2


def test_empty_list(tmp_path):
    with pytest.raises(CommandError, match="empty list") as caught:
        call_command("check_hand", write(tmp_path, "[]"), stdout=io.StringIO())
    assert caught.value.returncode == 2


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes('{"vira": "4-ouros", "nota": "mão"}'.encode("latin-1"))
    out = io.StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("check_hand", str(path), stdout=out)
    assert caught.value.returncode == 1  # that report's refusal, not the end of the batch
    assert json.loads(out.getvalue())["error"]["code"] == "encoding"


def test_messages_are_in_portuguese_by_default(tmp_path):
    with translation.override("pt-br"):
        verdicts, _code = run(write(tmp_path, '{"n": 1}\n{oops\n'))
        with pytest.raises(CommandError, match="Arquivo não encontrado"):
            call_command("check_hand", str(tmp_path / "nope.json"), stdout=io.StringIO())
    assert verdicts[1]["error"]["message"].startswith("JSON inválido na linha 2: ")


# -- the real process ---------------------------------------------------------------


def manage(*args: str, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check_hand", *args],
        input=stdin.encode("utf-8"), capture_output=True, cwd=ROOT, timeout=120,
    )


def test_process_exit_codes_and_no_traceback(tmp_path):
    good = manage("-", stdin=json.dumps(REPORT))
    assert good.stdout.decode("utf-8").count("\n") == 1
    assert good.returncode == (0 if json.loads(good.stdout)["valid"] else 1)

    mixed = manage("-", stdin=json.dumps(REPORT) + "\n{oops\n")
    lines = mixed.stdout.decode("utf-8").splitlines()
    assert len(lines) == 2 and json.loads(lines[1])["valid"] is False
    assert mixed.returncode == 1
    assert b"CommandError" in mixed.stderr and b"Traceback" not in mixed.stderr

    missing = manage(str(tmp_path / "nope.json"))
    assert missing.returncode == 2
    assert missing.stdout == b""
    assert b"CommandError" in missing.stderr and b"Traceback" not in missing.stderr
