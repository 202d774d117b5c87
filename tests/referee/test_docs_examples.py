"""The examples of docs/hand-report.md are tested: the docs cannot drift from the engine.

For every ``docs/examples/NN-name.json`` with a matching ``NN-name.verdict.json``:

* :func:`referee.engine.check_report` gives exactly the stored verdict;
* ``manage.py check_hand FILE`` prints that verdict (one line) and exits 0 or 1;
* ``POST /api/referee/hands/validate/`` answers 200 with that verdict.

And ``check_hand docs/examples/batch.jsonl`` prints one verdict per line, in order (the
ones in ``batch.verdicts.jsonl``), and exits non-zero because some reports are invalid.
The JSON blocks shown inline in the markdown must equal the files they copy.

The stored verdicts are the expected values: this module never computes them. After an
intentional engine change, refresh them with ``docs/examples/regenerate.py`` and review
the diff against the regulation. A report without a verdict file is deliberately out of
the tested set (a case where the engine is believed to depart from the regulation); it
shows up here as a skip, so it is never forgotten.

The parts that need the command or the endpoint skip, naming what is missing, when those
are not there (they were being built alongside these docs).
"""
from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command, get_commands
from django.test import Client
from django.urls import Resolver404, resolve

from referee.engine import check_report

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"
MARKDOWN = ROOT / "docs" / "hand-report.md"
BATCH = EXAMPLES / "batch.jsonl"
BATCH_VERDICTS = EXAMPLES / "batch.verdicts.jsonl"
COMMAND_FILE = ROOT / "referee" / "management" / "commands" / "check_hand.py"
URL = "/api/referee/hands/validate/"

REPORTS = sorted(p for p in EXAMPLES.glob("*.json") if not p.name.endswith(".verdict.json"))


def verdict_file(report: Path) -> Path:
    return report.with_name(report.stem + ".verdict.json")


TESTED = [p for p in REPORTS if verdict_file(p).exists()]
UNTESTED = [p for p in REPORTS if not verdict_file(p).exists()]


def load(path: Path):
    return json.loads(path.read_text(encoding="utf-8"))


def jsonl(path: Path) -> list:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]


def by_name(paths: list[Path]) -> dict:
    return {"argvalues": paths, "ids": [p.stem for p in paths]}


# ---------------------------------------------------------------- the engine
def test_the_examples_are_there():
    assert len(TESTED) >= 25, f"only {len(TESTED)} tested examples in {EXAMPLES}"
    assert BATCH.exists() and BATCH_VERDICTS.exists()
    orphans = [p.name for p in EXAMPLES.glob("*.verdict.json") if not p.with_name(
        p.name.removesuffix(".verdict.json") + ".json").exists()]
    assert not orphans, f"verdicts without a report: {orphans}"


@pytest.mark.parametrize("report", **by_name(TESTED))
def test_engine_gives_the_stored_verdict(report):
    assert check_report(load(report)) == load(verdict_file(report))


def test_every_example_is_in_the_tested_set():
    assert not UNTESTED, f"examples without a stored verdict: {[p.name for p in UNTESTED]}"


def test_batch_verdicts_are_the_engines():
    reports, verdicts = jsonl(BATCH), jsonl(BATCH_VERDICTS)
    assert len(reports) == len(verdicts) >= 5
    assert [check_report(r) for r in reports] == verdicts
    valid = [v["valid"] for v in verdicts]
    assert True in valid and False in valid, "the batch must mix valid and invalid reports"


# ------------------------------------------------------------- the markdown
# A marker, then a fenced json block; the body never crosses a fence (an empty block stays empty).
_INLINE = re.compile(
    r"<!-- example: docs/examples/(?P<name>[\w.+-]+) -->\n```json\n(?P<body>(?:(?!^```).)*?)^```", re.S | re.M
)


def test_inline_examples_equal_their_files():
    text = MARKDOWN.read_text(encoding="utf-8")
    blocks = list(_INLINE.finditer(text))
    assert len(blocks) >= 6, "hand-report.md shows examples inline"
    for block in blocks:
        source = EXAMPLES / block["name"]
        assert source.exists(), f"hand-report.md copies {block['name']}, which does not exist"
        assert json.loads(block["body"]) == load(source), f"the inline copy of {block['name']} is stale"


def test_every_example_is_linked_from_the_markdown():
    text = MARKDOWN.read_text(encoding="utf-8")
    missing = [p.name for p in [*REPORTS, BATCH] if f"examples/{p.name}" not in text]
    assert not missing, f"not linked from docs/hand-report.md: {missing}"


# -------------------------------------------------------------- the command
@pytest.fixture
def check_hand():
    """Run ``manage.py check_hand``; returns (verdicts, one per stdout line, exit status)."""
    if not COMMAND_FILE.exists():
        pytest.skip("manage.py check_hand is missing: referee/management/commands/check_hand.py does not exist")
    if "check_hand" not in get_commands():
        pytest.skip("manage.py check_hand is not registered (referee/management/commands/check_hand.py)")

    def run(path: Path | str) -> tuple[list, int]:
        out = io.StringIO()
        code = 0
        try:
            call_command("check_hand", str(path), stdout=out)
        except CommandError as error:
            code = error.returncode
        text = out.getvalue()
        assert text.endswith("\n"), "one verdict per line, each line ended"
        return [json.loads(line) for line in text.split("\n")[:-1]], code

    return run


@pytest.mark.parametrize("report", **by_name(TESTED))
def test_check_hand_prints_the_stored_verdict(check_hand, report):
    expected = load(verdict_file(report))
    verdicts, code = check_hand(report)
    assert verdicts == [expected]
    assert code == (0 if expected["valid"] else 1)


def test_check_hand_on_the_batch_prints_one_verdict_per_line_in_order(check_hand):
    verdicts, code = check_hand(BATCH)
    assert verdicts == jsonl(BATCH_VERDICTS)
    assert len(verdicts) == len(jsonl(BATCH))
    assert code != 0
    assert code == 1


def test_check_hand_on_a_json_list_of_every_example(check_hand, tmp_path):
    listing = tmp_path / "every-example.json"
    listing.write_text(json.dumps([load(p) for p in TESTED], ensure_ascii=False), encoding="utf-8")
    verdicts, code = check_hand(listing)
    assert verdicts == [load(verdict_file(p)) for p in TESTED]
    assert code == 1


# ------------------------------------------------------------- the endpoint
@pytest.fixture
def post(db, settings):
    """POST a JSON body to the validate endpoint as a staff user; returns the response."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    try:
        resolve(URL)
    except Resolver404:
        pytest.skip(f"the endpoint is missing: {URL} is not routed (referee/api_urls.py)")
    except ImportError as error:
        pytest.skip(f"the endpoint is missing: the URLconf of {URL} cannot be imported ({error})")
    # Validation is for referees and organizers (its messages can reveal hidden cards): a staff user,
    # by HTTP basic auth, as the documented curl example does.

    from tests.referee.test_hand_api import basic_auth

    from tests.tournaments.factories import operator

    operator("doc-validador", password="pw")
    client = Client(enforce_csrf_checks=True, HTTP_AUTHORIZATION=basic_auth("doc-validador", "pw"))

    def send(body):
        return client.post(URL, data=json.dumps(body, ensure_ascii=False), content_type="application/json",
                           HTTP_ACCEPT="application/json")

    return send


@pytest.mark.parametrize("report", **by_name(TESTED))
def test_endpoint_returns_the_stored_verdict(post, report):
    response = post(load(report))
    assert response.status_code == 200
    assert response.json() == load(verdict_file(report))


def test_endpoint_on_the_batch_as_a_list(post):
    response = post(jsonl(BATCH))
    assert response.status_code == 200
    assert response.json() == jsonl(BATCH_VERDICTS)
