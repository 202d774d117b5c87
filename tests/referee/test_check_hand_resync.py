"""``check_hand`` on a JSON list with unbalanced elements: a bracket never closed, one closed too many, a string
never closed. Each is that report's own refusal and every other report keeps its verdict (verdicts in = out),
in linear time and with memory bounded by the longest report (``referee/engine/json_array.py``: a broken
element ends at the first line that starts a new element). The 10⁶-report figures:
``benchmarks/check_hand_fuzz.py``."""
from __future__ import annotations

import json
import random

import pytest

from referee.engine import check_report, cli, json_array
from referee.engine.simulate import random_report


def _reports(n: int, seed: int = 23) -> list[str]:
    rng = random.Random(seed)
    pool = [json.dumps(random_report(rng), ensure_ascii=False) for _ in range(50)]
    return [pool[i % 50] for i in range(n)]


BROKEN = {
    "open_bracket": lambda r: '{"id": [' + r[1:],
    "open_bracket_one_value": lambda r: '{"id": [1,',
    "closer_too_many": lambda r: r + "}",
    "bracket_too_many": lambda r: r + "]}",
    "open_string": lambda r: '{"id": "mesa 7, ' + r[1:],
}


def _verdicts(lines: list[str]) -> list[dict]:
    written: list[bytes] = []
    try:
        cli.check_stream(iter(lines), written.append, lambda: None)
    except cli.CheckHandError:
        pass
    return [json.loads(line) for line in b"".join(written).splitlines()]


def _list(elements: list[str]) -> list[str]:
    """A list written one element a line, as ``check_hand``'s input lines."""
    return ["["] + [e + ("," if i < len(elements) - 1 else "") for i, e in enumerate(elements)] + ["]"]


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize("kind", sorted(BROKEN))
@pytest.mark.parametrize("at", [0, 7, 59])
def test_one_unbalanced_element_costs_its_own_verdict_only(monkeypatch, kind, at, streamed):
    """A list of 60 reports, one a line, element ``at`` broken: 60 verdicts, the broken one refused with its line,
    the 59 others as check_report judges them alone (short lists are read whole, long ones as they come)."""
    if streamed:
        monkeypatch.setattr(cli, "WHOLE_LIST_CHARS", 2000)
    reports = _reports(60)
    elements = list(reports)
    elements[at] = BROKEN[kind](reports[at])
    verdicts = _verdicts(_list(elements))
    assert len(verdicts) == 60
    assert verdicts[at]["valid"] is False and verdicts[at]["error"]["code"] == "json"
    assert verdicts[at]["error"]["params"]["line"] in (at + 2, at + 3)  # its line, or the next where it fails
    for i, report in enumerate(reports):
        if i != at:
            assert verdicts[i] == check_report(json.loads(report)), i


def test_a_pretty_printed_list_resynchronises_at_its_next_element(monkeypatch):
    """json.dumps(indent=2): the broken element ends where the next element starts, at its own indentation."""
    monkeypatch.setattr(cli, "WHOLE_LIST_CHARS", 2000)
    reports = [json.loads(r) for r in _reports(12)]
    text = json.dumps(reports, indent=2, ensure_ascii=False)
    lines = text.split("\n")
    third = lines.index("  {", lines.index("  {", lines.index("  {") + 1) + 1)
    lines[third + 1] = lines[third + 1].replace(": ", ": [", 1)  # the third report's first field opens a bracket
    verdicts = _verdicts(lines)
    assert len(verdicts) == 12
    assert [i for i, v in enumerate(verdicts) if not v["valid"]] == [2]
    assert verdicts[0] == check_report(reports[0]) and verdicts[11] == check_report(reports[11])


def _work(count: int, monkeypatch, kind: str) -> tuple[int, int]:
    """(characters copied into the reader's buffer or handed to the decoder, the longest buffer) for a list whose
    element 1 is broken by ``kind``, then ``count`` reports, one a line."""
    work, longest = [0], [0]
    more = json_array._Text.more

    def counted_more(self, keep):
        shift = more(self, keep)
        work[0] += len(self.buf)
        longest[0] = max(longest[0], len(self.buf))
        return shift

    decode = cli.DECODER.raw_decode

    def counted_decode(text, pos):
        work[0] += len(text) - pos
        return decode(text, pos)

    monkeypatch.setattr(json_array._Text, "more", counted_more)
    monkeypatch.setattr(cli, "DECODER", type("D", (), {"raw_decode": staticmethod(counted_decode),
                                                       "decode": cli.DECODER.decode})())
    monkeypatch.setattr(cli, "WHOLE_LIST_CHARS", 1000)
    elements = _reports(count)
    elements[1] = BROKEN[kind](elements[1])
    lines = _list(elements)
    written: list[bytes] = []
    try:
        cli.check_stream(iter(lines), written.append, lambda: None, lambda r: {"valid": True})
    except cli.CheckHandError:
        pass
    assert b"".join(written).count(b"\n") == count
    return work[0], longest[0]


@pytest.mark.parametrize("kind", ["open_bracket", "open_bracket_one_value", "open_string"])
def test_an_unbalanced_element_is_read_in_linear_time_and_bounded_memory(monkeypatch, kind):
    small, small_buffer = _work(1000, monkeypatch, kind)
    large, large_buffer = _work(8000, monkeypatch, kind)
    assert large / small < 10  # 8 times the input, about 8 times the work (quadratic would be 64)
    longest = max(len(r) for r in _reports(50))
    assert large_buffer < 20 * longest and large_buffer <= 2 * small_buffer  # not the rest of the list


def test_a_mixed_fuzz_gives_every_verdict(tmp_path):
    """The benchmark's fuzz at 3,000 reports: deep ids, unbalanced elements, an unclosed string, a byte that is
    not UTF-8: one verdict per element, the broken ones refused, the others valid."""
    from benchmarks.check_hand_fuzz import fuzz_element, _pool

    pool = _pool()
    path = tmp_path / "hands.json"
    path.write_bytes(b"[\n" + b",\n".join(fuzz_element(i, pool[i % len(pool)]) for i in range(3000)) + b"\n]\n")
    written: list[bytes] = []
    try:
        cli.check_stream(cli.input_lines(str(path)), written.append, lambda: None)
    except cli.CheckHandError:
        pass
    verdicts = [json.loads(line) for line in b"".join(written).splitlines()]
    assert len(verdicts) == 3000
    refused = [i for i, v in enumerate(verdicts) if not v["valid"]]
    assert refused == [i for i in range(3000) if i % 1000 in (2, 3, 4, 5)]
