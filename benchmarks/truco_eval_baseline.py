"""truco-eval's engine as ``benchmarks/engine.py``'s independent baseline: our hand reports in its documented
input, its engine's event log and its replay of it (:class:`TrucoEvalBaseline`). Nothing of truco-eval is in this
repository: ``TRUCO_EVAL_DIR`` names a checkout of it. Run through ``benchmarks/engine.py``.
"""
from __future__ import annotations

import functools
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.engine.cards import CARD_LOOKUP, RANKS, SUIT_SYMBOLS  # noqa: E402


class TrucoEvalBaseline:
    """The independent baseline: truco-eval's full replay (``runner.replay.replay_events``) on the same hands.

    truco-eval (github.com/LuizFelipeBarbosa/truco-eval) is not a dependency and none of its code is in this
    repository: when ``TRUCO_EVAL_DIR`` names a checkout of it (its ``truco/`` and ``runner/replay.py``), its
    packages are imported from there; otherwise the benchmark says the baseline was not measured. What is
    here is ours: the translation of our hand reports into its documented input, the engine event log
    (``engine_events.jsonl``: a ``match_start`` and one ``action`` per decision, as its ``TrucoMatch`` logs
    them) that ``python -m runner.cli replay FILE`` rebuilds and compares byte for byte.

    Each of our reports becomes a one-hand match: ``TrucoMatch(seed=i, initial_scores=…,
    scripted_deals=[the report's deal])`` (its constructor's documented test hook), then our events as its
    actions. Its log is made once, untimed, by its own engine; the timed part is ``replay_events(log)`` itself,
    with the report's deal passed in place of the seed's (its replay only knows seeded deals: its module's
    ``TrucoMatch`` is bound to the deal with :func:`functools.partial` for each hand, then restored).

    What differs (its rules are not ours; the translation keeps every decision and card):

    - seats are turned so that our dealer is its dealer of a first hand (seat 3); its team A is our team of
      the seat after the dealer; scores follow the teams;
    - an answer (accept, run, raise back) is given by the seat truco-eval asks (the one after the caller):
      ours lets either opponent answer (art. 13, 17); raising back is its ``RAISE`` (accept and call the next);
    - a covered card (ours: worth nothing, art. 11.1) has no equivalent: it is played face up;
    - after a tied trick its previous leader leads again (ours: the seat that tied last); three tied tricks
      go to its mão's team; a mão de ferro is played blind by position (``PLAY 2``) for 1 point (ours 3);
    - so some hands take another course there: at the first action it refuses, or once its hand is over,
      the rest of that report is left out (counted in ``truco_eval_hands_cut``); its replay then does less
      work than ours for those hands, which favours the baseline;
    - when the hand does not end the match, its replay deals the next hand from the seed (part of its
      replay's cost per hand, kept).
    """

    def __init__(self, folder: str):
        sys.path.insert(0, folder)
        from runner import replay  # its full replay
        from truco.match import Deal, IllegalActionError, TrucoMatch

        self.replay, self.Deal, self.Illegal, self.Match = replay, Deal, IllegalActionError, TrucoMatch

    @staticmethod
    def card(name: str) -> str:
        card = CARD_LOOKUP[name]
        return RANKS[card // 4] + SUIT_SYMBOLS[card % 4]

    def translate(self, report: dict) -> tuple[dict, object, list[tuple[int, str]]]:
        """(initial scores, deal, actions) of one of our reports, in truco-eval's seats and words."""
        dealer = report["dealer"]
        theirs = [(seat - dealer - 1) % 4 for seat in range(4)]  # our seat -> its seat; its dealer is 3
        a_team = (dealer + 1) & 1  # our team holding its team A (its even seats)
        scores = {"A": report["score"][a_team], "B": report["score"][1 - a_team]}
        dealt = report["deal"]
        hands = [None] * 4
        for seat in range(4):
            hands[theirs[seat]] = tuple(self.card(name) for name in dealt[str(seat)])
        deal = self.Deal(hands=tuple(hands), vira=self.card(report["vira"]))
        iron = report["score"] == [11, 11]
        actions: list[tuple[int, str]] = []
        responder = None  # its seat asked to answer a pending call
        for event in report["events"]:
            if "eleven" in event:  # its decider: the first seat of that team from the mão (its seat 0)
                actions.append(((event["team"] - dealer - 1) & 1,
                                "MAO_PLAY" if event["eleven"] == "play" else "MAO_FORFEIT"))
            elif "call" in event:
                if responder is None:
                    caller = theirs[event["seat"]]
                    actions.append((caller, event["call"].upper()))
                else:
                    actions.append((responder, "RAISE"))
                    caller = responder
                responder = (caller + 1) % 4
            elif "answer" in event:
                actions.append((responder, "ACCEPT" if event["answer"] == "accept" else "DECLINE"))
                responder = None
            elif "play" in event:
                seat = event["seat"]
                if iron:
                    position = 1 + [CARD_LOOKUP[n] for n in dealt[str(seat)]].index(CARD_LOOKUP[event["play"]])
                    actions.append((theirs[seat], f"PLAY {position}"))
                else:
                    actions.append((theirs[seat], "PLAY " + self.card(event["play"])))
            else:
                raise ValueError(f"no truco-eval action for {event}")
        return scores, deal, actions

    def logs(self, reports: list[dict]) -> tuple[list[tuple[object, list[dict]]], int]:
        """Each report's (deal, engine event log) as truco-eval writes it, and how many reports were cut."""
        out, cut = [], 0
        for index, report in enumerate(reports):
            scores, deal, actions = self.translate(report)
            match = self.Match(index, 4, initial_scores=scores, scripted_deals=[deal])
            for seat, action in actions:
                if match.hand_history:
                    cut += 1
                    break
                try:
                    match.apply_action(seat, action)
                except self.Illegal:
                    cut += 1
                    break
            out.append((deal, [json.loads(line) for line in match.serialize_events().splitlines()]))
        return out, cut

    def replay_all(self, logs) -> int:
        """truco-eval's full replay of every log; how many came back byte-identical."""
        replay, match, same = self.replay, self.Match, 0
        for deal, log in logs:
            replay.TrucoMatch = functools.partial(match, scripted_deals=(deal,))
            same += replay.replay_events(log)[1]
        replay.TrucoMatch = match
        return same

    def apply_all(self, logs) -> None:
        """Its engine's part of the replay alone: the match rebuilt from the logged actions, no byte comparison."""
        match = self.Match
        for deal, log in logs:
            start = log[0]
            rebuilt = match(start["seed"], start["num_players"], target=start["target"],
                            initial_scores=start["scores"], scripted_deals=(deal,))
            for event in log:
                if event["type"] == "action":
                    rebuilt.apply_action(event["seat"], event["action"], event["talk"])
