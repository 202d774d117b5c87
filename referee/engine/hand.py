"""Replaying one hand: its events in order, to the winner, the points and what was wrong.

The replay applies art. 11–24 of the regulamento técnico (and the rule-set options) to a
parsed report. Seats 0–3 run counter-clockwise, teams are ``seat & 1``; the player on the
dealer's right, ``(dealer + 1) % 4``, leads the first trick (art. 4).

A broken rule is a *violation* (code, article, message): the replay goes on and still
reaches a verdict where the regulation says what happens (art. 19, 22, 23, 24 …). Input that
cannot describe a real hand (a card played twice, an answer to no call) is a ReportError.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .cards import CARD_LOOKUP, DECK_CARDS, DECK_MASKS, card_name, parse_card
from .errors import ReportError
from .game import add_points, eleven_refused, game_winner, hand_start
from .hand_calls import CallsAndAnswers
from .infractions import CATALOG
from .messages import render
from .raises import CALL_FOR_VALUE
from .rules import RuleSet
from .rulings import Ruling, TableState, claim_refusal, propose_ruling, refused_params
from .tricks import COVERED, hand_winner, leader_after_tie, strengths, tied_hand_winner, trick_result

REG = "art. "

#: The fields each kind of event may carry ("note" is free text for people, on any event).
EVENT_FIELDS: dict[str, frozenset[str]] = {
    kind: frozenset(fields) | {kind, "note"} for kind, fields in {
        "play": {"seat", "covered"}, "call": {"seat", "said"}, "answer": {"seat"}, "eleven": {"team"},
        "infraction": {"seat"}, "fold": {"seat"}, "ask": {"seat"}, "prove": {"team"},
    }.items()
}


@dataclass(slots=True)
class Outcome:
    """What a replay found."""

    winner: int | None = None
    points: int = 0
    ended_by: str = "incomplete"
    value: int = 1
    tricks: list[dict] = field(default_factory=list)
    violations: list[dict] = field(default_factory=list)
    notes: list[dict] = field(default_factory=list)
    match_loser: int | None = None  # art. 19 read as the match: the team that loses it
    tentos: list[dict] = field(default_factory=list)  # tentos claimed after the hand (house rules ex. 1-3)


class HandReplay(CallsAndAnswers):
    """State of one hand while its events are replayed. Use :meth:`run`."""

    __slots__ = (
        "rules", "dealer", "score", "deal", "strength", "out", "value", "pending", "last_raiser",
        "turn", "leader", "plays", "played_seats", "results", "unseen",
        "eleven_team", "eleven_decided", "iron", "ended", "torna", "wrong_count", "seat_cards",
        "last_answer", "any_card", "vira", "deck", "skipped", "proved", "refused", "art6_truco",
    )

    def __init__(self, rules: RuleSet, dealer: int, vira: int, score: tuple[int, int],
                 deal: dict[int, list[int]] | None) -> None:
        self.rules = rules
        self.dealer = dealer
        self.score = score
        self.deal = deal
        self.strength = strengths(rules.deck, vira)
        self.vira = vira
        self.deck = DECK_CARDS[rules.deck]
        self.out = Outcome()
        self.pending: tuple[int, int, int] | None = None  # (value asked, caller team, caller seat)
        self.last_raiser: int | None = None
        self.turn = self.leader = (dealer + 1) % 4
        self.plays: list[tuple[int, int]] = []  # (seat, strength) of the trick on the table
        self.seat_cards: list[list[int]] = [[], [], [], []]  # cards each seat played, in order
        self.played_seats = 0  # bit mask of seats that played in this trick
        self.skipped = 0  # seats passed over by a card out of turn: they may still play (art. 23)
        self.results: list[int | None] = []
        # bit mask of the cards that may still be shown: the deck less the vira and the cards played
        self.unseen = DECK_MASKS[rules.deck] & ~(1 << vira)
        self.torna: dict[int, int] = {}
        self.ended = False
        self.last_answer: tuple[int, int] | None = None  # (seat, event index) of the last answer
        self.any_card = False
        self.proved = False  # art. 21: one proof per hand
        self.refused: int | None = None  # the value of the raise a team ran from (house rules, tento ex. 2)
        self.art6_truco = False  # the pending truco is art. 6's claim in a mão de onze (option wrong_cards_in_eleven)
        self.iron, self.eleven_team, self.value = hand_start(score, rules)  # mão de onze / de ferro (art. 18, 20)
        self.eleven_decided = self.eleven_team is None
        self.wrong_count = False
        if deal is not None:
            for seat, cards in deal.items():
                if len(cards) != 3:
                    self.wrong_count = True
                    self.violation("wrong_card_count", "art. 6", None, "wrong_card_count.dealt",
                                   seat=seat, count=len(cards))

    # ----------------------------------------------------------------- results
    def violation(self, code: str, article: str, event: int | None, key: str | None = None, **params) -> None:
        """Record a broken rule: its code, article, event, and its message as data (``key``, ``params``;
        see :mod:`referee.engine.messages`) with the Portuguese sentence rendered from them."""
        key = key or code
        self.out.violations.append({"code": code, "article": article, "message": render(key, params), "event": event,
                                    "key": key, "params": params})

    def note(self, code: str, article: str, event: int | None, **params) -> None:
        """Record something that broke no rule (a note), as data like a violation."""
        key = "note." + code
        self.out.notes.append({"code": code, "article": article, "event": event, "message": render(key, params),
                               "key": key, "params": params})

    def finish(self, winner: int | None, points: int, ended_by: str) -> None:
        self.ended = True
        out = self.out
        out.winner, out.points, out.ended_by, out.value = winner, points, ended_by, self.value

    # ------------------------------------------------------------------ events
    def run(self, events: list) -> Outcome:
        handlers = self.HANDLERS
        on_play = self.on_play
        for index, event in enumerate(events):
            if type(event) is not dict:
                raise ReportError(f"events[{index}]", "event.not_object")
            # fast path: {"seat", "play"} or {"seat", "play", "covered"}, the bulk of every report
            if "play" in event and (len(event) == 2 or (len(event) == 3 and "covered" in event)) and not self.ended:
                on_play(index, event)
                continue
            kinds = [key for key in event if key in handlers]
            if len(kinds) != 1:
                raise ReportError(f"events[{index}]", "event.actions")
            unknown = event.keys() - EVENT_FIELDS[kinds[0]]
            if unknown:
                raise ReportError(f"events[{index}].{sorted(unknown)[0]}", "event.unknown_field",
                                  {"kind": kinds[0], "fields": ", ".join(sorted(EVENT_FIELDS[kinds[0]]))})
            if self.ended:
                self.after_end(index, event, kinds[0])
                continue
            handlers[kinds[0]](self, index, event)
        if not self.ended:
            self.close_incomplete()
        if self.rules.show_highest_after_tied_first and len(self.results) > 1 and self.results[0] is None:
            self.check_highest_shown()
        return self.out

    def seat_of(self, index: int, event: dict) -> int:
        seat = event.get("seat")
        if type(seat) is not int or not 0 <= seat <= 3:
            raise ReportError(f"events[{index}].seat", "event.seat")
        return seat

    def team_of(self, index: int, event: dict) -> int:
        team = event.get("team")
        if type(team) is not int or team not in (0, 1):
            raise ReportError(f"events[{index}].team", "event.team")
        return team

    def require_eleven_decision(self, index: int) -> None:
        if not self.eleven_decided:
            raise ReportError(f"events[{index}]", "eleven.undecided",
                              {"team": self.eleven_team, "number": self.eleven_team})

    # -------------------------------------------------------------------- play
    def on_play(self, index: int, event: dict) -> None:
        seat = event.get("seat")
        if type(seat) is not int or not 0 <= seat <= 3:
            seat = self.seat_of(index, event)
        if not self.eleven_decided:
            self.require_eleven_decision(index)
        if self.pending is not None:
            raise ReportError(f"events[{index}]", "play.call_pending",
                              {"call": CALL_FOR_VALUE[self.pending[0]], "team": 1 - self.pending[1]})
        covered = event.get("covered", False)
        if type(covered) is not bool:
            raise ReportError(f"events[{index}].covered", "play.covered")
        card_text = event["play"]
        torna = None
        if type(card_text) is list:
            if len(card_text) != 2:
                raise ReportError(f"events[{index}].play", "play.two_cards")
            card_text, torna = card_text
        card = self.take_card(index, seat, card_text)
        if self.played_seats >> seat & 1:
            raise ReportError(f"events[{index}].seat", "play.seat_played", {"seat": seat, "trick": len(self.results) + 1})
        if covered:
            if not self.results:
                self.violation("covered_first_trick", "art. 11.1", index, card=card_name(card), seat=seat)
                covered = False
            elif self.results[0] is None and not self.rules.cover_after_tied_first:
                self.violation("cover_after_tied_first", "JTB, melando o jogo, caso 1", index, card=card_name(card),
                               seat=seat)
                covered = False
        if seat != self.turn and not self.skipped >> seat & 1:
            self.out_of_turn(index, seat)
        self.any_card = True
        self.plays.append((seat, COVERED if covered else self.strength[card]))
        played = self.played_seats = self.played_seats | 1 << seat
        if seat == self.turn and played != 0b1111:  # the next seat in turn that has not played
            turn = (seat + 1) & 3
            while played >> turn & 1:
                turn = (turn + 1) & 3
            self.turn = turn
        if torna is not None:
            self.violation("two_cards_at_once", "art. 22", index, seat=seat, card=card_name(card))
            self.torna[seat] = self.take_card(index, seat, torna)
        if self.played_seats == 0b1111:
            self.close_trick()

    def take_card(self, index: int, seat: int, text: object) -> int:
        try:
            card = CARD_LOOKUP[text]
        except (KeyError, TypeError):
            card = parse_card(text, f"events[{index}].play")
        if not self.unseen >> card & 1:
            self.card_error(index, card)
        self.unseen ^= 1 << card
        if self.deal is not None and card not in self.deal[seat]:
            self.not_dealt(index, seat, card)
        mine = self.seat_cards[seat]
        mine.append(card)
        if len(mine) > 3:
            raise ReportError(f"events[{index}].play", "play.three_cards", {"seat": seat})
        return card

    def out_of_turn(self, index: int, seat: int) -> None:
        """art. 23: the card stays; play goes on from it, and the players it skipped keep their turn."""
        self.violation("card_out_of_turn", "art. 23", index, seat=seat, turn=self.turn)
        turn = self.turn
        while turn != seat:
            if not self.played_seats >> turn & 1:
                self.skipped |= 1 << turn
            turn = (turn + 1) & 3
        self.turn = seat  # the turn bookkeeping below moves on from the card played

    def not_dealt(self, index: int, seat: int, card: int) -> None:
        raise ReportError(f"events[{index}].play", "play.not_dealt",
                          {"card": card_name(card), "seat": seat, "cards": ", ".join(card_name(c) for c in self.deal[seat])})

    def card_error(self, index: int, card: int) -> None:
        field = f"events[{index}].play"
        if card == self.vira:
            raise ReportError(field, "card.vira", {"card": card_name(card)})
        if card not in self.deck:
            raise ReportError(field, "card.not_in_deck", {"card": card_name(card), "deck": self.rules.deck})
        raise ReportError(field, "card.played", {"card": card_name(card)})

    def cards_seen(self) -> set[int]:
        """The vira and every card shown so far."""
        return {card for card in self.deck if not self.unseen >> card & 1}

    def close_trick(self) -> None:
        team, seat, tying_seat = trick_result(self.plays)
        results = self.results
        results.append(team)
        number = len(results)
        if team is None:
            self.out.tricks.append({"number": number, "winner": None, "seat": None, "tie": True})
            lead = self.rules.lead_after_tie
            self.leader = tying_seat if lead == "tying_player" else leader_after_tie(
                self.plays, lead, (self.dealer + 1) & 3, self.leader, tying_seat)
        else:
            self.out.tricks.append({"number": number, "winner": team, "seat": seat, "tie": False})
            self.leader = seat
        decided, winner = hand_winner(results)
        if decided:
            if winner is not None:
                self.finish(winner, self.value, "tricks")
            else:
                self.all_tied()
            return
        self.plays = []
        self.played_seats = self.skipped = 0
        self.turn = self.leader
        if self.torna:
            for seat, card in self.torna.items():
                self.plays.append((seat, self.strength[card]))
                self.played_seats |= 1 << seat
            self.torna = {}
            while self.played_seats >> self.turn & 1 and self.played_seats != 0b1111:
                self.turn = (self.turn + 1) & 3
            if self.played_seats == 0b1111:
                self.close_trick()

    def tied_winner(self) -> int | None:
        """Who wins three tied tricks: nobody (art. 11.4; art. 20 in the mão de ferro) or the variant."""
        return tied_hand_winner(self.rules, self.dealer, self.iron)

    def all_tied(self) -> None:
        winner = self.tied_winner()
        if winner is None:
            self.finish(None, 0, "iron_tie" if self.iron else "all_tied")
        else:
            self.finish(winner, self.value, "iron_tie" if self.iron else "all_tied")

    # ------------------------------------------------------------------ raises
    def after_end(self, index: int, event: dict, kind: str) -> None:
        if (kind == "answer" or (kind == "call" and self.out.ended_by == "run")) \
                and self.partner_already_answered(index, self.seat_of(index, event)):
            return  # art. 17: the pair's first decision (a run) stands
        if kind == "infraction" and self.after_hand_infraction(index, event):
            return
        raise ReportError(f"events[{index}]", "event.after_hand", {"ended_by": self.out.ended_by})

    def after_hand_infraction(self, index: int, event: dict) -> bool:
        """A tento the house rules let a team claim after the hand (catalog ``after_hand``: ex. 1-3).

        Its value is the hand's final value; for ``looked_at_covered`` after a refused raise, the value of
        that raise (house rules, tento ex. 2: "3 pontos ao invés de 1"). The hand's result stands; the
        tento's points are added after it (verdict ``tentos``). Once the hand (or an earlier tento) took a
        team to 12 the game is over (a game is played to 12): the claim is recorded and scores nothing.
        """
        seat = self.seat_of(index, event)
        code = event["infraction"]
        entry = CATALOG.get(code) if type(code) is str else None
        if entry is None or not entry.after_hand:
            return False
        out = self.out
        value = self.refused if entry.after_hand_value == "refused_raise" and self.refused is not None else out.value
        score = add_points(self.score, out.winner, out.points, self.rules)
        for tento in out.tentos:
            score = add_points(score, tento["team"], tento["points"], self.rules)
        winner = game_winner(score)
        if winner is not None:
            self.violation(code, entry.article, index, "ruling.after_game", infraction=code, what=entry.title,
                           seat=seat, team=winner)
            return True
        state = TableState(score, self.dealer, value, None, True, self.wrong_count)
        ruling = propose_ruling(self.rules, code, seat, state)
        self.apply_message(ruling, index, "ruling.after_hand", seat)
        if ruling.beneficiary is not None and ruling.points:
            out.tentos.append({"code": ruling.code, "article": ruling.article, "event": index,
                               "offender": ruling.offender, "team": ruling.beneficiary, "points": ruling.points})
        return True

    # ------------------------------------------------------------- mão de onze
    def on_eleven(self, index: int, event: dict) -> None:
        team = self.team_of(index, event)
        decision = event["eleven"]
        if self.eleven_team is None:
            raise ReportError(f"events[{index}]", "eleven.none")
        if team != self.eleven_team:
            raise ReportError(f"events[{index}].team", "eleven.team", {"team": self.eleven_team})
        if self.eleven_decided:
            raise ReportError(f"events[{index}]", "eleven.decided")
        if decision not in ("play", "run"):
            raise ReportError(f"events[{index}].eleven", "eleven.unknown")
        self.eleven_decided = True
        if decision == "run":  # the opponents score the refusal (common texts: 1)
            scorer, self.value = eleven_refused(team, self.rules)
            self.finish(scorer, self.value, "eleven_refused")

    def on_prove(self, index: int, event: dict) -> None:
        """art. 21: a team at 11 whose cards guarantee the win may prove it instead of playing."""
        from .eleven import ProofNotSettled, sure_win

        team = self.team_of(index, event)
        if self.eleven_team != team and not (self.iron and team in (0, 1)):
            raise ReportError(f"events[{index}].team", "prove.team")
        if self.any_card:
            raise ReportError(f"events[{index}]", "prove.after_card")
        if self.deal is None:
            raise ReportError("deal", "prove.no_deal")
        if self.proved:
            raise ReportError(f"events[{index}]", "prove.twice")
        self.proved = True
        self.eleven_decided = True
        try:
            won = sure_win(self.strength, self.deal, team, self.dealer, self.cards_seen(), self.deck,
                           self.tied_winner(), lead_after_tie=self.rules.lead_after_tie)
        except ProofNotSettled:
            self.violation("proof_not_settled", REG + "21", index, team=team)
            return
        if won:
            self.finish(team, self.value, "proof")
        else:
            self.violation("proof_failed", REG + "21", index, team=team)

    # ------------------------------------------------------ infractions, folds
    def on_infraction(self, index: int, event: dict) -> None:
        seat = self.seat_of(index, event)
        code = event["infraction"]
        if code == "wrong_card_count":  # attested by the referee: art. 6 applies as if the deal showed it
            entry = CATALOG[code]
            refusal = claim_refusal(entry, seat, self.table_state(), self.rules)
            if refusal:
                raise ReportError(f"events[{index}].infraction", "infraction.refused", refused_params(entry, refusal))
            self.wrong_count = True
            self.violation(code, entry.article, index, "wrong_card_count.attested", seat=seat)
            return
        try:
            ruling = propose_ruling(self.rules, code, seat, self.table_state())
        except ReportError as error:
            raise ReportError(f"events[{index}].{error.field}", error.code, error.params) from None
        self.apply(ruling, index, "ruling" if ruling.consequence else "ruling.recorded", seat)

    def table_state(self) -> TableState:
        pending = self.pending
        return TableState(self.score, self.dealer, self.value, None if pending is None else 1 - pending[1],
                          self.any_card, self.wrong_count)

    def apply_message(self, ruling: Ruling, index: int, key: str, seat: int, **params) -> None:
        """Record a ruling as a violation of its article, its message as data (the consequence nested)."""
        self.violation(ruling.code, ruling.article, index, key, infraction=ruling.code, what=ruling.title, seat=seat,
                       offender=ruling.offender, beneficiary=ruling.beneficiary, points=ruling.points,
                       consequence=ruling.consequence_data(), **params)

    def apply(self, ruling: Ruling, index: int, key: str, seat: int, **params) -> None:
        """Record a ruling as a violation of its article and, when it says so, end the hand."""
        self.apply_message(ruling, index, key, seat, **params)
        if ruling.match_loss:
            self.out.match_loser = ruling.offender
        if ruling.deal_lost:
            self.finish(None, 0, "deal_lost")
        elif ruling.ends_hand:
            self.finish(ruling.beneficiary, ruling.points, "penalty")

    def on_fold(self, index: int, event: dict) -> None:
        seat = self.seat_of(index, event)
        if event["fold"] is not True:
            raise ReportError(f"events[{index}].fold", "fold.true")
        self.require_eleven_decision(index)
        pending = self.pending
        if pending is not None and pending[1] != seat & 1:  # facing a raise, giving up is running from it (art. 13)
            self.pending = None
            self.last_answer = (seat, index)
            self.run_from(pending[0], pending[1])
            return
        if not self.rules.fold_any_time:
            self.violation("fold_not_allowed", REG + "13", index, seat=seat, team=seat & 1)
        self.pending = None
        self.finish(1 - (seat & 1), self.value, "fold")

    def on_ask(self, index: int, event: dict) -> None:
        """art. 6: the dealer, trucado for a wrong number of cards before the hand is played, asks: he loses the deal.

        Asking is the dealer's own answer to that truco ("se perguntar, perde o carteado"); a question
        by anyone else, at another moment or after a right deal is a violation with no effect on the hand.
        """
        seat = self.seat_of(index, event)
        if event["ask"] != "cards":
            raise ReportError(f"events[{index}].ask", "ask.cards")
        pending = self.pending
        dealer = self.dealer
        trucado = pending is not None and pending[0] == 3 and pending[1] != dealer & 1
        if seat == dealer and self.wrong_count and trucado and not self.any_card:
            self.violation("dealer_asked", "art. 6", index, seat=seat)
            self.finish(None, 0, "deal_lost")
            return
        if seat != dealer:
            why = "not_dealer"
        elif not self.wrong_count:
            why = "right_deal"
        elif self.any_card:
            why = "playing"
        else:
            why = "not_trucado"
        self.violation("ask_without_effect", "art. 6", index, "ask_without_effect." + why, seat=seat, dealer=dealer)

    # ------------------------------------------------------------------- close
    def close_incomplete(self) -> None:
        self.out.value = self.value
        self.violation("hand_incomplete", REG + "11", None, tricks=len(self.results))

    def check_highest_shown(self) -> None:
        """JTB variant: after a tied first trick each player shows the highest card in the second."""
        strength = self.strength
        for seat, played in enumerate(self.seat_cards):
            if len(played) < 2:
                continue
            held = self.deal[seat] if self.deal is not None else played
            shown = played[1]
            if any(strength[c] > strength[shown] for c in held if c not in played[:2]):
                self.violation("highest_not_shown", "JTB, melando o jogo, caso 1", None, seat=seat)


HandReplay.HANDLERS = {
    "play": HandReplay.on_play, "call": HandReplay.on_call, "answer": HandReplay.on_answer,
    "eleven": HandReplay.on_eleven, "infraction": HandReplay.on_infraction, "fold": HandReplay.on_fold,
    "ask": HandReplay.on_ask, "prove": HandReplay.on_prove,
}
