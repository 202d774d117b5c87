"""``check_hand`` reads a JSON list element by element: memory bounded by the longest report,
whatever the list's length, even a list on one line with an emoji (``referee/engine/json_array.py``).
Lists shorter than ``cli.WHOLE_LIST_CHARS`` are read whole, as any JSON document; the figures for 10⁶
reports are in ``benchmarks/engine.py`` (``--memory``)."""
from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.engine import check_report, cli, json_array, report_input
from referee.engine.simulate import random_report


def _reports(n: int, seed: int = 5) -> list[dict]:
    rng = random.Random(seed)
    return [random_report(rng) for _ in range(n)]


def _run(path: str) -> list[dict]:
    written: list[bytes] = []
    try:
        cli.check_stream(cli.input_lines(path), written.append, lambda: None)
    except cli.CheckHandError:
        pass
    return [json.loads(line) for line in b"".join(written).splitlines()]


def test_a_long_list_is_answered_as_it_is_read():
    report = json.dumps(_reports(1)[0], ensure_ascii=False)
    count = cli.WHOLE_LIST_CHARS // len(report) + 2 * cli.CHUNK_LINES + 10
    written: list[bytes] = []
    read = {"pieces": 0, "at_first_write": None}

    def pieces():
        for n in range(count):
            if written and read["at_first_write"] is None:
                read["at_first_write"] = n
            read["pieces"] = n + 1
            yield ("[" if n == 0 else "") + report + ("]" if n == count - 1 else ",")

    cli.check_stream(pieces(), written.append, lambda: None)
    assert b"".join(written).count(b"\n") == count
    assert read["at_first_write"] is not None and read["at_first_write"] < count - cli.CHUNK_LINES


def test_a_list_on_one_line_with_an_emoji_gives_the_json_lines_verdicts(tmp_path, monkeypatch):
    monkeypatch.setattr(report_input, "PIECE_BYTES", 997)  # pieces of a line, cut inside characters too
    monkeypatch.setattr(cli, "WHOLE_LIST_CHARS", 5000)
    reports = _reports(60)
    reports[7]["id"] = "mesa 🃏 7"
    path = tmp_path / "hands.json"
    path.write_text(json.dumps(reports, ensure_ascii=False), encoding="utf-8")
    assert _run(str(path)) == [check_report(json.loads(json.dumps(r))) for r in reports]


def test_in_a_long_list_a_broken_report_gets_its_own_verdict_and_a_broken_list_ends_it(tmp_path, monkeypatch):
    monkeypatch.setattr(cli, "WHOLE_LIST_CHARS", 2000)
    lines = [json.dumps(r, ensure_ascii=False) for r in _reports(30)]
    lines[20] = '{"dealer": 3, "vira": }'
    path = tmp_path / "hands.json"
    path.write_text("[\n" + ",\n".join(lines) + "\n] trailing\n", encoding="utf-8")
    verdicts = _run(str(path))
    assert len(verdicts) == 31
    assert verdicts[20]["error"]["code"] == "json" and "linha 22" not in verdicts[20]["error"]["message"]
    assert "line 22" in verdicts[20]["error"]["message"] and "column 23" in verdicts[20]["error"]["message"]
    assert all(v["valid"] for i, v in enumerate(verdicts[:30]) if i != 20)
    assert "Extra data on" not in verdicts[30]["error"]["message"] and "line 32" in verdicts[30]["error"]["message"]


def _pieces(text: str, size: int) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        while len(line) > size:
            out.append(json_array.Partial(line[:size]))
            line = line[size:]
        out.append(line)
    return out


TEXTS = st.text(alphabet='"\\,[]{} ab🃏\n', max_size=8)
VALUES = st.recursive(st.none() | st.integers() | TEXTS,
                      lambda inner: st.lists(inner, max_size=3) | st.dictionaries(TEXTS, inner, max_size=3),
                      max_leaves=10)


@settings(max_examples=100, deadline=None)
@given(st.lists(VALUES, max_size=6), st.sampled_from([None, 1]), st.integers(1, 9))
def test_the_elements_are_the_lists_elements(values, indent, size):
    """Property: split at any piece size, the elements read one by one are the list's elements."""
    text = json.dumps(values, indent=indent, ensure_ascii=False)
    raw_decode = json.JSONDecoder().raw_decode
    assert [value for value, _, _ in json_array.values(iter(_pieces(text, size)), raw_decode)] == values
