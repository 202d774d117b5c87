"""Calls and their answers in a hand's replay: the values 1 → 3 → 6 → 9 → 12 (art. 11, 13), who may
raise (art. 12), running from a raise (art. 13), false calls (art. 16) and a raise in the hand of
eleven (art. 19): the part of
:class:`referee.engine.hand.HandReplay` that follows what was said, kept in a module of its own. It is
the replay's base class and works on the replay's own state.
"""
from __future__ import annotations

from .errors import ReportError, echo, shown
from .raises import CALL_FOR_VALUE, CALLS, NEXT_VALUE, is_false_call, new_raise_faults, raise_back_fault
from .rulings import propose_ruling

REG = "art. "


class CallsAndAnswers:
    """The replay's calls and answers (a mixin of :class:`~referee.engine.hand.HandReplay`)."""

    def on_call(self, index: int, event: dict) -> None:
        seat = self.seat_of(index, event)
        call = event["call"]
        if type(call) is not str or call not in CALLS:
            raise ReportError(f"events[{index}].call", "call.unknown", {"value": shown(call)})
        said = event.get("said")
        if said is not None and type(said) is not str:
            raise ReportError(f"events[{index}].said", "call.said")
        team = seat & 1
        if self.eleven_team is not None or self.iron:
            if (call == "truco" and self.pending is None and self.wrong_count and not self.any_card
                    and team != self.dealer & 1 and self.rules.wrong_cards_in_eleven == "art6"):
                # art. 6 names the case: the dealer who gave a wrong number of cards "pode ser trucado"
                self.art6_truco = True
                self.pending = (3, team, seat)
                self.last_answer = None
                self.note("art6_truco", "art. 6", index, seat=seat, team=team)
                return
            self.raise_in_eleven(index, seat, call)
            return
        rules = self.rules
        pending = self.pending
        decision = False  # a raise-back: the answering team's decision on the call it answers (art. 17)
        base = self.value
        if pending is not None:
            fault = raise_back_fault(call, team, pending[0], pending[1])
            if fault == "repeated_call":  # the team's own call is still pending: no new step (art. 12, 13)
                self.note("repeated_call", REG + "12", index, seat=seat, call=call)
                return
            if fault == "raise_not_alternating":
                if self.partner_already_answered(index, seat):  # the partner's raise-back decided (art. 17)
                    return
                self.violation("raise_not_alternating", REG + "12", index, "raise_not_alternating.pending",
                               team=team, seat=seat, call=call, pending=CALL_FOR_VALUE[pending[0]])
                return
            if fault == "raise_beyond_twelve":  # art. 11, 13: nothing goes above doze; the doze stays pending
                self.violation("raise_beyond_twelve", REG + "13", index, "raise_beyond_twelve.pending",
                               team=team, seat=seat, call=call)
                return
            # a raise-back accepts the call it answers
            if self.accept(pending[0], pending[1], index):
                return
            decision = True
            base = self.value
            if CALLS[call] != NEXT_VALUE.get(base):
                self.violation("raise_out_of_order", REG + "12", index, seat=seat, call=call, value=base,
                               counts_as=CALL_FOR_VALUE[NEXT_VALUE[base]])
        else:
            in_turn = self.player_in_turn()
            for fault in new_raise_faults(call, team, seat, base, self.last_raiser, in_turn, rules.raises == "in_turn"):
                if fault == "raise_not_alternating":
                    self.violation(fault, REG + "12", index, "raise_not_alternating.last", team=team, seat=seat, call=call)
                elif fault == "raise_out_of_turn":
                    self.violation(fault, REG + "12", index, seat=seat, turn=in_turn, call=call)
                elif fault == "raise_beyond_twelve":
                    self.violation(fault, REG + "13", index, "raise_beyond_twelve.worth", seat=seat, call=call)
                    return
                else:
                    self.violation(fault, REG + "12", index, seat=seat, call=call, value=base,
                                   counts_as=CALL_FOR_VALUE[NEXT_VALUE[base]])
        asked = NEXT_VALUE[base]
        if is_false_call(call, said):
            said = echo(said)
            if rules.false_call == "tento":
                ruling = propose_ruling(rules, "false_call", seat, self.table_state())
                self.apply(ruling, index, "ruling.false_call", seat, said=said)
                return
            self.violation("false_call", REG + "16", index, seat=seat, said=said, counts_as=CALL_FOR_VALUE[asked])
        self.pending = (asked, team, seat)
        self.last_answer = (seat, index) if decision else None

    def player_in_turn(self) -> int:
        """Who is in turn: a player passed over by a card out of turn keeps the turn (art. 23), first in the order of play."""
        skipped = self.skipped
        if skipped:
            seat = self.leader
            for _ in range(4):
                if skipped >> seat & 1:
                    return seat
                seat = (seat + 1) & 3
        return self.turn

    def raise_in_eleven(self, index: int, seat: int, call: str) -> None:
        """art. 19: a raise in the mão de onze (or de ferro, art. 18) costs 3, or the game."""
        ruling = propose_ruling(self.rules, "raise_in_eleven", seat, self.table_state())
        self.apply(ruling, index, "ruling.raise_in_eleven", seat, call=call)

    def on_answer(self, index: int, event: dict) -> None:
        seat = self.seat_of(index, event)
        answer = event["answer"]
        if answer not in ("accept", "run"):
            raise ReportError(f"events[{index}].answer", "answer.unknown", {"value": shown(answer)})
        pending = self.pending
        if pending is None:
            if self.partner_already_answered(index, seat):
                return
            raise ReportError(f"events[{index}]", "answer.nothing_pending")
        asked, caller_team, _ = pending
        if seat & 1 == caller_team:
            if self.partner_already_answered(index, seat):  # the partner's raise-back was the pair's decision
                return
            raise ReportError(f"events[{index}].seat", "answer.caller", {"seat": seat, "team": 1 - caller_team})
        self.pending = None
        self.last_answer = (seat, index)
        if answer == "run":
            self.run_from(asked, caller_team)
            return
        self.accept(asked, caller_team, index)

    def run_from(self, asked: int, caller_team: int) -> None:
        """art. 13: who runs loses the value in play before the raise; the raise refused is kept (house rules, ex. 2)."""
        self.refused = asked
        if self.art6_truco:  # art. 6: "se correr, perde um tento"
            self.violation("wrong_card_count", "art. 6", None, "wrong_card_count.ran", team=caller_team)
            self.finish(caller_team, 1, "penalty")
            return
        self.finish(caller_team, self.value, "run")

    def accept(self, asked: int, caller_team: int, index: int) -> bool:
        """The hand is worth ``asked`` now. True when that ended it: art. 6, a wrong dealer who accepts pays three."""
        self.value = asked
        self.last_raiser = caller_team
        if self.wrong_count and not self.any_card and asked == 3 and caller_team != self.dealer & 1:
            self.violation("wrong_card_count", "art. 6", index, "wrong_card_count.accepted", team=caller_team)
            self.finish(caller_team, 3, "penalty")
            return True
        return False

    def partner_already_answered(self, index: int, seat: int) -> bool:
        """art. 17: the first decision of either partner stands; a later answer is ignored."""
        last = self.last_answer
        if last is not None and last[0] == (seat + 2) & 3:
            self.note("pair_decision", REG + "17", index, seat=last[0], partner=seat)
            return True
        return False
