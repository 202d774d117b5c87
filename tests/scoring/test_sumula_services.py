"""Entering a súmula through the services: hands checked by the engine, games to 12, best of N,
penalties with their article, undo (kept in the audit trail), corrections with a reason (art. 25)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.db import IntegrityError, transaction

from scoring import services
from scoring.models import Game, HandEntry, Match, MatchEvent, PenaltyEntry, SumulaVersion
from tournaments.models import Round

from .sumula_setup import *  # noqa: F401,F403

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def fresh(match) -> Match:
    return Match.objects.get(pk=match.pk)


def score(match) -> tuple:
    game = Game.objects.filter(match=match).order_by("-number").first()
    return game.number, game.score_a, game.score_b


# ---------------------------------------------------------------------------- creating


def test_create_copies_the_tournaments_rules_and_format(match3, tournament):
    assert match3.rule_set["preset"] == "regulamento-tecnico"
    assert set(match3.rule_set["options"]) >= {"deck", "all_tied", "score_cap"}
    assert match3.best_of == 3 and match3.games.get().first_dealer == 0
    assert match3.events.filter(kind="created").count() == 1


def test_create_refuses_pairs_of_another_tournament(pairs, organizer, tournament):
    from tournaments.models import Tournament

    other = Tournament.objects.create(name="Outro", slug="outro", date=tournament.date, organizer=organizer)
    with pytest.raises(services.ScoringError) as error:
        services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=other, by=organizer)
    assert error.value.field == "pair_a" and "Outro" in error.value.message
    rnd = Round.objects.create(tournament=other, number=1)
    with pytest.raises(services.ScoringError) as error:
        services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, round=rnd, by=organizer)
    assert error.value.field == "round"


def test_create_refuses_bad_rules_format_and_same_pair(pairs, organizer, tournament, referee):
    with pytest.raises(services.ScoringError) as error:
        services.create_match(pair_a=pairs[0], pair_b=pairs[0], tournament=tournament, by=organizer)
    assert error.value.field == "pair_b"
    with pytest.raises(services.ScoringError) as error:
        services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, best_of=2, by=organizer)
    assert error.value.field == "best_of"
    with pytest.raises(services.ScoringError) as error:
        services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, by=organizer,
                              rule_set={"preset": "regulamento-tecnico", "options": {"deck": "sem-cartas"}})
    assert error.value.field == "rule_set.options.deck"
    with pytest.raises(services.Forbidden):
        services.create_match(pair_a=pairs[0], pair_b=pairs[1], tournament=tournament, by=referee)


def test_db_constraints_hold_without_the_service(match, pairs):
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match.pk).update(pair_b=pairs[0])
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match.pk).update(best_of=2)
    with pytest.raises(IntegrityError), transaction.atomic():
        Match.objects.filter(pk=match.pk).update(status="signed")  # no winner yet (art. 25)
    game = match.games.get()
    with pytest.raises(IntegrityError), transaction.atomic():
        PenaltyEntry.objects.create(game=game, position=1, offender=0, beneficiary=1, points=1, article="",
                                    score_a=0, score_b=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Game.objects.create(match=match, number=1)


# ---------------------------------------------------------------------------- hands


def test_a_full_game_to_12_ends_a_best_of_1_match(match, referee):
    hands = play(match, referee, 0, 1, 0, 1, 0, {"winner": 0, "ended_by": "run", "value": 1},
                 {"winner": 1, "ended_by": "tricks", "value": 1})
    assert [h.dealer for h in hands] == [0, 1, 2, 3, 0, 1, 2]  # art. 4: the deal passes on
    assert score(match) == (1, 10, 7)
    play(match, referee, {"winner": 0, "ended_by": "tricks", "value": 1})  # 11-7: mão de onze next
    with pytest.raises(services.ScoringError) as error:
        play(match, referee, {"winner": 0, "ended_by": "tricks", "value": 6})
    assert error.value.field == "value" and "art. 18, 19" in error.value.message
    play(match, referee, 0)  # the mão de onze, worth 3: 12 (capped)
    match = fresh(match)
    assert match.winner == 0 and (match.games_a, match.games_b) == (1, 0) and match.finished_at
    assert match.games.count() == 1 and match.games.get().score == (12, 7)
    version = match.versions.get()
    assert version.number == 1 and version.content["result"] == {"games": [1, 0], "winner": 0}
    with pytest.raises(services.Conflict) as error:
        play(match, referee, 1)
    assert "over" in error.value.message or "terminou" in error.value.message


def test_best_of_3_runs_to_its_end(match3, referee):
    play(match3, referee, *[0] * 4)  # game 1 to team 0
    assert score(match3) == (2, 0, 0)
    services.set_first_dealer(match3, 2, referee)  # art. 1: the table draws again
    hands = play(match3, referee, *[1] * 4)  # game 2 to team 1
    assert [h.dealer for h in hands] == [2, 3, 0, 1]
    assert fresh(match3).winner is None and score(match3) == (3, 0, 0)
    play(match3, referee, 1, 1, 0, 1, 1)
    match3 = fresh(match3)
    assert match3.winner == 1 and (match3.games_a, match3.games_b) == (1, 2)
    assert [g.winner for g in match3.games.order_by("number")] == [0, 1, 1]
    assert match3.versions.get().content["result"] == {"games": [1, 2], "winner": 1}
    with pytest.raises(services.Conflict):
        services.record_penalty(match3, 0, 1, "art. 24", "", referee)


def test_the_engine_refuses_what_cannot_be(match, referee):
    cases = [
        ({"winner": 0, "ended_by": "tricks", "value": 2}, "value", "art. 11, 13"),
        ({"winner": 0, "ended_by": "run", "value": 12}, "value", "art. 13"),
        ({"winner": 0, "ended_by": "eleven_refused", "value": 1}, "ended_by", "art. 18"),
        ({"winner": 0, "ended_by": "deal_lost", "value": 0}, "winner", "art. 5"),
        ({"winner": 1, "ended_by": "all_tied", "value": 0}, "winner", "art. 11.4"),
        ({"winner": None, "ended_by": "tricks", "value": 3}, "winner", ""),
        ({"winner": 0, "ended_by": "escapou", "value": 3}, "ended_by", ""),
    ]
    for entry, field, article in cases:
        with pytest.raises(services.ScoringError) as error:
            services.record_hand(match, entry, referee)
        assert error.value.field == field, entry
        assert article in error.value.message, entry
    assert not HandEntry.objects.exists()
    nobody = services.record_hand(match, {"winner": None, "ended_by": "all_tied", "value": 0}, referee)
    assert nobody.points == 0 and nobody.winner is None and nobody.dealer == 0
    lost = services.record_hand(match, {"winner": None, "ended_by": "deal_lost", "value": 0}, referee)
    assert lost.dealer == 1  # the deal passes on even when nobody scored


def test_mao_de_onze_only_allows_3_and_refusing_it_gives_1(match, referee):
    play(match, referee, 0, 0, 0, {"winner": 0, "ended_by": "tricks", "value": 1}, 1)  # 10-3
    play(match, referee, {"winner": 0, "ended_by": "tricks", "value": 1})  # 11-3
    state = services.entry_state(fresh(match), __import__("scoring.content").content.load_games(match))
    assert state["state"] == "eleven" and state["allowed"]["tricks"] == [3]
    assert state["allowed"]["run"] == [] and state["allowed"]["eleven_refused"] == [1]
    with pytest.raises(services.ScoringError) as error:
        play(match, referee, {"winner": 0, "ended_by": "tricks", "value": 6})
    assert "art. 18, 19" in error.value.message
    refused = services.record_hand(match, {"winner": 1, "ended_by": "eleven_refused", "value": 1}, referee)
    assert refused.points == 1 and score(match) == (1, 11, 4)


def test_only_the_referee_or_organizer_enters(match, outsider, organizer):
    with pytest.raises(services.Forbidden):
        play(match, outsider, 0)
    with pytest.raises(services.Forbidden):
        play(match, None, 0)
    play(match, organizer, 0)
    assert score(match) == (1, 3, 0)


# ---------------------------------------------------------------------------- reports

def example(name: str, **changes) -> dict:
    report = json.loads((EXAMPLES / name).read_text())
    report.update(changes)
    return report


def test_a_pasted_report_is_checked_against_the_games_state(match, referee):
    report = example("01-plain-hand.json", score=[0, 0])  # dealer 3: the table drew seat 3 (art. 1)
    hand = services.record_hand(match, {"report": report}, referee)
    assert hand.report == report and hand.verdict["valid"] and hand.winner == 0 and hand.points == 1
    assert hand.ended_by == "tricks" and hand.dealer == 3 and score(match) == (1, 1, 0)
    assert match.games.get().first_dealer == 3
    with pytest.raises(services.ScoringError) as error:  # seat 0 deals the second hand
        services.record_hand(match, {"report": example("01-plain-hand.json", score=[1, 0])}, referee)
    assert error.value.field == "report.dealer" and "art. 4" in error.value.message
    with pytest.raises(services.ScoringError) as error:
        services.record_hand(match, {"report": example("01-plain-hand.json", dealer=0, score=[4, 6])}, referee)
    assert error.value.field == "report.score"
    with pytest.raises(services.ScoringError) as error:  # the engine cannot read it: refused
        services.record_hand(match, {"report": {"dealer": 0, "score": [1, 0], "vira": "4-ouros"}}, referee)
    assert error.value.field == "report.events"
    with pytest.raises(services.ScoringError) as error:
        services.record_hand(match, {"report": example("01-plain-hand.json", dealer=0, score=[1, 0],
                                                       rules={"preset": "jtb"})}, referee)
    assert error.value.field == "report.rules"
    assert HandEntry.objects.count() == 1


def test_a_report_with_violations_is_recorded_with_them(match, referee):
    hand = services.record_hand(match, example("19-guidance-word.json", score=[0, 0]), referee)
    assert hand.ended_by == "penalty" and hand.winner == 1 and hand.points == 3
    assert [v["article"] for v in hand.violations] == ["art. 24"]
    assert score(match) == (1, 0, 3)


def test_an_incomplete_report_is_refused(match, referee):
    report = {"dealer": 0, "score": [0, 0], "vira": "4-ouros", "events": [{"seat": 1, "play": "5-copas"}]}
    with pytest.raises(services.ScoringError) as error:
        services.record_hand(match, {"report": report}, referee)
    assert "art. 11" in error.value.message


# ---------------------------------------------------------------------------- penalties


def test_penalties_need_an_article_and_count_toward_12(match, referee):
    with pytest.raises(services.ScoringError) as error:
        services.record_penalty(match, 0, 3, "", "Falou", referee)
    assert error.value.field == "article"
    with pytest.raises(services.ScoringError) as error:
        services.record_penalty(match, 0, 3, "art. 99", "Falou", referee)
    assert error.value.field == "article"
    with pytest.raises(services.ScoringError) as error:
        services.record_penalty(match, 0, 0, "art. 24", "Falou", referee)
    assert error.value.field == "points"
    penalty = services.record_penalty(match, 0, 3, "Art 24", "Palavra de orientação", referee)
    assert penalty.article == "art. 24" and penalty.beneficiary == 1 and penalty.score == (0, 3)
    play(match, referee, 1, 1)
    services.record_penalty(match, 0, 3, "art. 19", "Trucou na mão de onze", referee)
    assert fresh(match).winner == 1  # the penalty took team 1 to 12


# ---------------------------------------------------------------------------- undo


def test_undo_removes_the_last_entry_and_keeps_it_in_the_audit_trail(match3, referee):
    play(match3, referee, 0, 0, 0)
    services.record_penalty(match3, 1, 3, "art. 24", "Palavra", referee)  # ends game 1: 12-0
    assert score(match3) == (2, 0, 0) and fresh(match3).games_a == 1
    removed = services.undo_last(match3, referee)
    assert removed["kind"] == "penalty" and removed["article"] == "art. 24"
    assert score(match3) == (1, 9, 0) and fresh(match3).games_a == 0
    assert Game.objects.filter(match=match3).count() == 1
    assert services.undo_last(match3, referee)["number"] == 3
    assert score(match3) == (1, 6, 0)
    undo_events = MatchEvent.objects.filter(match=match3, kind="undo").order_by("id")
    assert [e.data["entry"]["kind"] for e in undo_events] == ["penalty", "hand"]
    hand = play(match3, referee, 1)[0]
    assert hand.number == 3 and hand.dealer == 2


def test_undo_after_the_match_ended_supersedes_the_unsigned_version(match, referee):
    play(match, referee, 0, 0, 0, 0)
    assert fresh(match).winner == 0 and SumulaVersion.objects.count() == 1
    services.undo_last(match, referee)
    assert fresh(match).winner is None and score(match) == (1, 9, 0)
    play(match, referee, 0)  # the same hand again: the same content, version 1 is current again
    assert SumulaVersion.objects.count() == 1
    services.undo_last(match, referee)
    play(match, referee, 1, 0)
    assert [v.number for v in SumulaVersion.objects.order_by("number")] == [1, 2]
    assert SumulaVersion.objects.get(number=2).content["corrections"] == []


def test_nothing_to_undo(match, referee):
    with pytest.raises(services.Conflict):
        services.undo_last(match, referee)


def test_undo_is_refused_once_someone_signed(match, referee):
    play(match, referee, 0, 0, 0, 0)
    services.sign(match, "team1", match.pair_b.second_player, pin=PINS["Duda Melo"])
    with pytest.raises(services.Conflict) as error:
        services.undo_last(match, referee)
    assert "art. 25" in error.value.message


# ---------------------------------------------------------------------------- corrections


def test_correction_needs_a_reason_and_makes_a_new_version(match, referee):
    play(match, referee, 0, 1, 0, 0, 0)  # 12-3
    v1 = fresh(match).versions.get()
    change = [{"op": "replace_hand", "game": 1, "hand": 2, "winner": 0, "ended_by": "tricks", "value": 1}]
    for reason in ("", "   ", None):
        with pytest.raises(services.ScoringError) as error:
            services.correct(match, change, reason, referee)
        assert error.value.field == "reason" and "art. 25" in error.value.message
    v2 = services.correct(match, change, "Mão 2 anotada para a dupla errada", referee)
    assert v2.number == 2 and v2.reason == "Mão 2 anotada para a dupla errada"
    assert SumulaVersion.objects.get(pk=v1.pk).content == v1.content  # the old version is kept as issued
    assert v2.content["games"][0]["entries"][1]["winner"] == 0
    assert v2.content["games"][0]["score"] == [12, 0]
    assert v2.content["corrections"] == [{"version": 2, "reason": "Mão 2 anotada para a dupla errada",
                                          "by": "Carla Árbitra", "at": v2.content["corrections"][0]["at"]}]
    assert MatchEvent.objects.filter(match=match, kind="correction").get().data["reason"].startswith("Mão 2")


def test_a_correction_is_checked_by_the_engine_from_the_first_hand(match, referee):
    play(match, referee, 0, 0, 0, 0)
    with pytest.raises(services.ScoringError) as error:  # 1+3+3+3+1 = 11: the next hand is a mão de onze
        services.correct(match, [
            {"op": "replace_hand", "game": 1, "hand": 1, "winner": 0, "ended_by": "tricks", "value": 1},
            {"op": "insert_hand", "game": 1, "winner": 0, "ended_by": "tricks", "value": 1},
            {"op": "insert_hand", "game": 1, "winner": 0, "ended_by": "tricks", "value": 6},
        ], "teste", referee)
    assert "hand 6" in error.value.message or "mão 6" in error.value.message
    assert "art. 18, 19" in error.value.message
    with pytest.raises(services.ScoringError) as error:
        services.correct(match, [{"op": "insert_penalty", "game": 1, "after": 0, "offender": 1, "points": 12,
                                  "article": "art. 19", "reason": "x"}], "teste", referee)
    assert "12" in error.value.message  # game 1 would end before its other entries
    with pytest.raises(services.ScoringError) as error:
        services.correct(match, [{"op": "remove_entry", "game": 1, "position": 9}], "teste", referee)
    assert error.value.field == "changes[0].position"
    with pytest.raises(services.ScoringError):
        services.correct(match, [{"op": "set_first_dealer", "game": 1, "dealer": 0}], "nada", referee)
    assert SumulaVersion.objects.count() == 1 and HandEntry.objects.count() == 4  # nothing half written


def test_a_correction_can_reopen_the_match(match, referee):
    play(match, referee, 0, 0, 0, 0)
    services.sign(match, "team0", match.pair_a.first_player, pin=PINS["Ana Souza"])
    services.sign(match, "team1", match.pair_b.first_player, pin=PINS["Caio Reis"])
    assert fresh(match).status == "signed"
    services.correct(match, [{"op": "remove_entry", "game": 1, "position": 4}], "Mão 4 não foi jogada", referee)
    match = fresh(match)
    assert match.status == "open" and match.winner is None and match.signed_at is None
    assert score(match) == (1, 9, 0)
    play(match, referee, 1, 0)  # play continues; the match ends again
    versions = list(SumulaVersion.objects.order_by("number"))
    assert [v.number for v in versions] == [1, 2, 3]
    assert versions[2].content["corrections"][0]["reason"] == "Mão 4 não foi jogada"


def test_correction_inserts_a_penalty_and_changes_the_first_dealer(match, referee):
    play(match, referee, 0, 0, 0, 0)
    v2 = services.correct(match, [
        {"op": "set_first_dealer", "game": 1, "dealer": 3},
        {"op": "insert_penalty", "game": 1, "after": 1, "offender": 0, "points": 1, "article": "art. 24",
         "reason": "Palavra"},
    ], "Pé inicial e tento esquecidos", referee)
    entries = v2.content["games"][0]["entries"]
    assert [e.get("dealer") for e in entries] == [3, None, 0, 1, 2]
    assert entries[1]["kind"] == "penalty" and entries[-1]["score"] == [12, 1]
