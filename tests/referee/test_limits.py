"""Limits on costly or hostile reports: one art. 21 proof per hand, bounded and cached;
at most ``MAX_EVENTS`` events per hand; lone surrogates echoed escaped; check_hand never loses a
verdict and exits 2 on an internal error; the endpoint's body size and proof limits.
"""
from __future__ import annotations

import io
import json
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from referee import api as api_module
from referee.engine import check_report, eleven
from referee.engine.verdict import MAX_EVENTS

from .test_hand_api import REPORT, client, post, staff  # noqa: F401 (fixtures)

PROOF = {
    "dealer": 3, "vira": "4-ouros", "score": [11, 4],
    "deal": {"0": ["5-paus", "5-copas", "3-espadas"], "1": ["K-ouros", "7-copas", "6-paus"],
             "2": ["A-espadas", "Q-ouros", "6-copas"], "3": ["J-paus", "2-ouros", "7-espadas"]},
    "events": [{"team": 0, "prove": True}],
}


def test_art_21_a_sure_win_is_proved_once():
    assert check_report(PROOF)["ended_by"] == "proof"
    twice = check_report({**PROOF, "deal": {**PROOF["deal"], "0": ["4-paus", "5-copas", "3-espadas"]},
                          "events": [{"team": 0, "prove": True}] * 10})
    assert twice["error"]["field"] == "events[1]" and "uma só por mão" in twice["error"]["message"]


def test_art_21_the_search_is_cached_per_hand(monkeypatch):
    hand = {**PROOF, "deal": {**PROOF["deal"], "0": ["5-paus", "4-copas", "3-espadas"]}}
    first = check_report(hand)
    monkeypatch.setattr(eleven, "_search", lambda *args: pytest.fail("searched again"))
    assert check_report(hand) == first


def test_art_21_a_proof_not_settled_in_time_is_refused_whole(monkeypatch):
    monkeypatch.setattr(eleven, "MAX_NODES", 10)
    monkeypatch.setattr(eleven.sure_win, "__defaults__", (None, None, 10, "tying_player"))
    hand = {**PROOF, "deal": {**PROOF["deal"], "0": ["5-paus", "5-espadas", "3-copas"]}}
    v = check_report(hand)
    assert [x["code"] for x in v["violations"]][:1] == ["proof_not_settled"]
    assert v["violations"][0]["article"] == "art. 21" and v["ended_by"] == "incomplete" and v["points"] == 0


def test_ten_proofs_search_once_at_most(monkeypatch):
    """Ten proofs in one hand cost one search at most (each search bounded by ``MAX_NODES``); how long
    that takes is benchmarks/proofs.py's to measure, not a test's (a loaded machine failed a limit here)."""
    searches = []
    search = eleven._search
    monkeypatch.setattr(eleven, "_search", lambda *args: searches.append(args) or search(*args))
    eleven._RESULTS.clear()
    check_report({**PROOF, "events": [{"team": 0, "prove": True}] * 10})
    assert len(searches) == 1


def test_a_hand_holds_at_most_max_events():
    v = check_report({**REPORT, "events": [{"seat": 0, "play": "3-espadas"}] * (MAX_EVENTS + 1)})
    assert v["error"]["field"] == "events" and str(MAX_EVENTS) in v["error"]["message"]


@pytest.mark.parametrize("report", [
    {**REPORT, "id": "mesa-\ud800"},
    {**REPORT, "id": {"\udfff": ["\ud800"]}},
    {**REPORT, "\ud800": 1},
    {**REPORT, "events": [{"seat": 0, "call": "truco", "said": "Tr\ud800co"}]},
    {**REPORT, "events": [{"seat": 0, "play": "3-espadas", "\ud800": 1}]},
])
def test_lone_surrogates_are_echoed_escaped(report):
    verdict = check_report(report)
    text = json.dumps(verdict, ensure_ascii=False)
    text.encode("utf-8")  # never raises
    assert "\\ud800" in text or "\\udfff" in text


def run_check_hand(text: str) -> tuple[int, list[dict]]:
    out, err = io.BytesIO(), io.StringIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8")
    code = 0
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(text.encode("utf-8", "surrogatepass")), encoding="utf-8")
    try:
        call_command("check_hand", "-", stdout=stdout, stderr=err)
    except CommandError as exc:
        code = exc.returncode
    finally:
        sys.stdin = saved
    stdout.flush()
    lines = out.getvalue().decode("utf-8").splitlines()
    return code, [json.loads(line) for line in lines]


def test_check_hand_keeps_every_verdict_with_a_surrogate_among_them():
    reports = [dict(REPORT, id=f"r{i}") for i in range(1500)]
    reports[700] = dict(REPORT, id="\ud800")
    text = "\n".join(json.dumps(r) for r in reports)  # ASCII JSON: the surrogate as \ud800
    code, verdicts = run_check_hand(text)
    assert len(verdicts) == 1500 and code == 1
    assert verdicts[700]["id"] == "\\ud800" and verdicts[1499]["id"] == "r1499"


def test_check_hand_exits_2_on_an_internal_error_and_keeps_the_verdicts(monkeypatch):
    from referee.engine import verdict as verdict_module

    real = verdict_module._verdict

    def broken(report):
        if report.get("id") == "bug":
            raise KeyError("bug")
        return real(report)

    monkeypatch.setattr(verdict_module, "_verdict", broken)
    text = "\n".join(json.dumps(dict(REPORT, id=i)) for i in ("a", "bug", "c"))
    code, verdicts = run_check_hand(text)
    assert code == 2 and [v["id"] for v in verdicts] == ["a", "bug", "c"]
    assert verdicts[1]["error"]["internal"] is True


def test_endpoint_answers_a_surrogate_with_200(client):  # noqa: F811
    body = json.dumps({**REPORT, "id": "\ud800", "\udfff": 1}).encode()
    response = post(client, body)
    assert response.status_code == 200
    assert response.json()["id"] == "\\ud800"


def test_endpoint_refuses_a_body_too_large_unread(client, monkeypatch):  # noqa: F811
    monkeypatch.setattr(api_module.HandReportJSONParser, "max_bytes", 1000)
    response = post(client, [REPORT] * 20)
    assert response.status_code == 413
    assert "1000" in response.json()["detail"]


def test_endpoint_limits_the_proofs_of_one_request(client):  # noqa: F811
    response = post(client, [PROOF] * (api_module.MAX_PROOF_REPORTS + 1))
    assert response.status_code == 400
    assert "art. 21" in response.json()["detail"]
    assert post(client, [PROOF] * api_module.MAX_PROOF_REPORTS).status_code == 200
