"""``check_hand`` on hostile input: a report nested as deep as JSON allows, a list element whose brackets never
close, bytes that are not UTF-8. Each is that report's own refusal; every other report keeps its verdict, and
the reading stays linear in the input's size (``referee/engine/json_array.py``)."""
from __future__ import annotations

import json
import random

import pytest

from referee.engine import check_report, cli, json_array
from referee.engine.simulate import random_report


def _reports(n: int, seed: int = 11) -> list[str]:
    rng = random.Random(seed)
    return [json.dumps(random_report(rng), ensure_ascii=False) for _ in range(n)]


def _run_file(tmp_path, data: bytes) -> tuple[list[dict], int]:
    path = tmp_path / "hands.json"
    path.write_bytes(data)
    written: list[bytes] = []
    code = 0
    try:
        cli.check_stream(cli.input_lines(str(path)), written.append, lambda: None)
    except cli.CheckHandError as exc:
        code = exc.returncode
    return [json.loads(line) for line in b"".join(written).splitlines()], code


def _deep(report: str, depth: int) -> str:
    return '{"id": ' + "[" * depth + '"x"' + "]" * depth + ", " + report[1:]


@pytest.mark.parametrize("depth", [500, 800, 990, 5000])
@pytest.mark.parametrize("shape", ["lines", "list"])
def test_a_deeply_nested_id_is_that_reports_refusal_and_the_others_go_on(tmp_path, depth, shape):
    reports = _reports(4)
    reports[1] = _deep(reports[1], depth)
    text = "\n".join(reports) if shape == "lines" else "[" + ",\n".join(reports) + "]"
    verdicts, code = _run_file(tmp_path, text.encode())
    assert len(verdicts) == 4
    for i in (0, 2, 3):
        assert verdicts[i] == check_report(json.loads(reports[i]))
    assert code != 2  # never an internal error
    assert "error" in verdicts[1] or verdicts[1]["valid"] is not None


def test_an_error_raised_while_judging_one_report_does_not_end_the_batch():
    def check(report):
        if report["n"] == 2:
            raise RecursionError
        if report["n"] == 3:
            raise KeyError("bug")
        return {"valid": True}

    written: list[bytes] = []
    with pytest.raises(cli.CheckHandError) as stop:
        cli.check_stream(iter([json.dumps({"n": n}) for n in range(1, 5)]), written.append, lambda: None,
                         cli.localized(check, "en"))
    verdicts = [json.loads(line) for line in b"".join(written).splitlines()]
    assert [v.get("error", {}).get("code") for v in verdicts] == [None, "report.nested", "report.internal", None]
    assert verdicts[1]["error"]["message"] == "the report is nested too deeply to be read"
    assert stop.value.returncode == 2  # the internal error still says so


@pytest.mark.parametrize("shape", ["lines", "list"])
def test_an_invalid_byte_refuses_only_the_report_that_holds_it(tmp_path, shape):
    reports = [r.encode() for r in _reports(5)]
    reports[2] = b'{"id": "mesa \xff 3", ' + reports[2][1:]
    reports[3] = b'{"id": \xfe}'  # outside a string: that line is not JSON
    data = b"\n".join(reports) if shape == "lines" else b"[" + b",\n".join(reports) + b"]"
    verdicts, code = _run_file(tmp_path, data)
    assert len(verdicts) == 5
    for i in (0, 1, 4):
        assert verdicts[i] == check_report(json.loads(reports[i]))
    assert verdicts[2]["error"]["code"] == "encoding" and verdicts[2]["id"] == "mesa \\udcff 3"
    assert verdicts[3]["valid"] is False
    assert code == 1


def _unbalanced_work(count: int, monkeypatch) -> int:
    """Characters copied into the list reader's buffer and handed to the decoder, for a list whose first
    element opens a bracket it never closes, then ``count`` reports, one a line."""
    work = [0]
    more = json_array._Text.more

    def counted_more(self, keep):
        shift = more(self, keep)
        work[0] += len(self.buf)
        return shift

    decode = cli.DECODER.raw_decode

    def counted_decode(text, pos):
        work[0] += len(text) - pos
        return decode(text, pos)

    monkeypatch.setattr(json_array._Text, "more", counted_more)
    monkeypatch.setattr(cli, "DECODER", type("D", (), {"raw_decode": staticmethod(counted_decode),
                                                       "decode": cli.DECODER.decode})())
    monkeypatch.setattr(cli, "WHOLE_LIST_CHARS", 1000)
    pool = _reports(50)
    lines = ['[{"id": [1,'] + [pool[i % 50] + ("," if i < count - 1 else "]") for i in range(count)]
    try:
        cli.check_stream(iter(lines), lambda _: None, lambda: None, lambda r: {"valid": True})
    except cli.CheckHandError:
        pass
    return work[0]


def test_an_element_that_never_closes_is_read_in_linear_time(monkeypatch):
    small = _unbalanced_work(2000, monkeypatch)
    large = _unbalanced_work(8000, monkeypatch)
    # 4 times the input: linear work is about 4 times; re-copying the buffer per line would be 16 times
    assert large / small < 6
