"""The súmula document and its digest (docs/sumula-document.md; art. 25: signatures bind it)."""
from __future__ import annotations

import copy
import hashlib
import json

import pytest

from scoring import services
from scoring.content import canonical, digest, sumula_document
from scoring.models import Signature, SumulaVersion, HistoryError

from .sumula_setup import *  # noqa: F401,F403


def contract_digest(document: dict) -> str:
    """The contract's algorithm, written out again independently of scoring.content."""
    def canon(value):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode("utf-8")

    header = {k: v for k, v in document.items() if k not in ("games", "result", "corrections", "digest")}
    h = hashlib.sha256(canon(header)).hexdigest()
    for game in document["games"]:
        for entry in game["entries"]:
            h = hashlib.sha256((h + canon(entry).decode("utf-8")).encode("utf-8")).hexdigest()
    tail = {"result": document["result"], "corrections": document["corrections"]}
    return hashlib.sha256((h + canon(tail).decode("utf-8")).encode("utf-8")).hexdigest()


@pytest.fixture
def finished(match, referee, organizer):
    """A best-of-1 match played to 12 with a penalty (art. 24) on the way; version 1 issued."""
    play(match, referee, 0, 1, {"winner": 1, "ended_by": "run", "value": 1})
    services.record_penalty(match, 0, 1, "art. 24", "Palavra de orientação", referee)
    play(match, referee, 0, 0, 0)
    return match


def test_document_has_the_contract_shape(finished):
    version = finished.versions.get()
    doc = version.content
    assert set(doc) == {"schema", "match", "teams", "games", "result", "corrections", "digest"}  # jsonb: any order
    assert doc["schema"] == 1
    assert doc["match"] == {
        "id": finished.pk, "tournament": "Torneio de Teste", "tournament_slug": "torneio-de-teste",
        "round": 2, "round_name": "Rodada 2", "table": 7, "best_of": 1, "referee": "Carla Árbitra",
        "rules": finished.rule_set, "version": 1,
    }
    assert doc["match"]["rules"]["preset"] == "regulamento-tecnico"
    assert doc["teams"][0] == {"pair_id": finished.pair_a_id, "name": "Os Zaps",
                               "players": ["Ana Souza", "Beto Lima"], "club": "Clube X"}
    assert doc["teams"][1]["club"] == ""
    entries = doc["games"][0]["entries"]
    assert entries[0] == {"kind": "hand", "number": 1, "dealer": 0, "ended_by": "tricks", "value": 3,
                          "winner": 0, "points": 3, "score": [3, 0], "report": None}
    assert entries[2]["ended_by"] == "run" and entries[2]["score"] == [3, 4]
    assert entries[3] == {"kind": "penalty", "offender": 0, "beneficiary": 1, "points": 1, "article": "art. 24",
                          "reason": "Palavra de orientação", "ruling": None, "score": [3, 5]}
    assert [e["dealer"] for e in entries if e["kind"] == "hand"] == [0, 1, 2, 3, 0, 1]  # art. 4: to the right
    assert doc["games"][0]["score"] == [12, 5] and doc["games"][0]["winner"] == 0
    assert doc["result"] == {"games": [1, 0], "winner": 0}
    assert doc["corrections"] == []
    assert doc["digest"] == version.digest == digest(doc) == contract_digest(doc)


def test_canonical_is_the_contracts_json():
    assert canonical({"b": 1, "a": [1, "ção"]}) == '{"a":[1,"ção"],"b":1}'.encode("utf-8")


@pytest.mark.parametrize("tamper", [
    pytest.param(lambda d: d["games"][0]["entries"][1].update(winner=0), id="entry-winner"),
    pytest.param(lambda d: d["games"][0]["entries"][0].update(points=1), id="entry-points"),
    pytest.param(lambda d: d["games"][0]["entries"][3].update(article="art. 19"), id="penalty-article"),
    pytest.param(lambda d: d["games"][0]["entries"][3].update(reason="outra"), id="penalty-reason"),
    pytest.param(lambda d: d["games"][0]["entries"].pop(2), id="entry-removed"),
    pytest.param(lambda d: d["games"][0]["entries"].insert(0, dict(d["games"][0]["entries"][0])), id="entry-added"),
    pytest.param(lambda d: d["games"][0]["entries"].reverse(), id="entries-reordered"),
    pytest.param(lambda d: d["result"].update(winner=1), id="result-winner"),
    pytest.param(lambda d: d["result"].update(games=[0, 1]), id="result-games"),
    pytest.param(lambda d: d["corrections"].append({"version": 2, "reason": "x", "by": None, "at": ""}),
                 id="corrections"),
    pytest.param(lambda d: d["match"].update(table=8), id="header-table"),
    pytest.param(lambda d: d["match"].update(version=2), id="header-version"),
    pytest.param(lambda d: d["match"]["rules"]["options"].update(all_tied="dealer_team"), id="header-rules"),
    pytest.param(lambda d: d["teams"][1]["players"].reverse(), id="header-players"),
    pytest.param(lambda d: d["teams"][0].update(name="Os Zapes"), id="header-team-name"),
])
def test_any_tampering_changes_the_digest(finished, tamper):
    original = finished.versions.get().content
    tampered = copy.deepcopy(original)
    tamper(tampered)
    assert digest(tampered) != original["digest"]
    assert digest(original) == original["digest"]


def test_signatures_bind_the_digest_and_a_correction_voids_them(finished, referee):
    v1 = finished.versions.get()
    signature = services.sign(finished, "team0", finished.pair_a.first_player, pin=PINS["Ana Souza"])
    assert signature.digest == v1.digest
    services.correct(finished, [{"op": "replace_hand", "game": 1, "hand": 3, "winner": 1, "ended_by": "run",
                                 "value": 3}], "Corrida valia 3 (truco recusado depois do seis? não: do truco)",
                     referee)
    v2 = finished.versions.order_by("-number").first()
    assert v2.number == 2 and v2.digest != v1.digest
    assert Signature.objects.get(pk=signature.pk).digest == v1.digest  # kept, but binds the old content
    assert not v2.signatures.exists()
    assert v2.content["corrections"][0]["reason"].startswith("Corrida valia 3")
    assert v2.content["corrections"][0]["by"] == "Carla Árbitra"


def test_live_document_is_the_current_version_until_something_changes(match, referee):
    play(match, referee, 0, 0)
    draft = sumula_document(match)
    assert draft["match"]["version"] == 1 and not SumulaVersion.objects.exists()
    play(match, referee, 1)
    version = services.issue_version(match, referee)
    assert version.number == 1 and version.content["result"] == {"games": [0, 0], "winner": None}
    assert sumula_document(match) == version.content
    assert sumula_document(version) == version.content
    assert services.issue_version(match, referee) == version  # nothing changed: no new version
    play(match, referee, 1)
    assert sumula_document(match)["match"]["version"] == 2
    assert SumulaVersion.objects.count() == 1


def test_versions_are_never_overwritten_or_deleted(finished):
    version = finished.versions.get()
    version.reason = "rewritten"
    with pytest.raises(HistoryError):
        version.save()
    with pytest.raises(HistoryError):
        version.delete()
    signature = services.sign(finished, "team1", finished.pair_b.first_player, pin=PINS["Caio Reis"])
    with pytest.raises(HistoryError):
        signature.delete()


def test_a_friendly_has_no_tournament_in_its_document(pairs, referee, settings):

    from tests.tournaments.factories import operator

    staff = operator("staff")  # a friendly's organizers are the site's operators
    friendly = services.create_match(pair_a=pairs[0], pair_b=pairs[2], referee=referee, by=staff)
    doc = sumula_document(friendly)
    assert doc["match"]["tournament"] is None and doc["match"]["round"] is None and doc["match"]["table"] is None
    assert doc["result"] == {"games": [0, 0], "winner": None}
