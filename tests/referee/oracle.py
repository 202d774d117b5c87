"""An independent oracle of a hand: small, slow and obvious, written from the regulation's text, sharing no
code with ``referee/engine``. It deals and plays a random legal hand itself — deciding who leads
each trick by its own reading — and says what the hand's result must be.

The text it follows (``shared/regulation/``):

* cards, low to high: 4 5 6 7 Q J K A 2 3 (all texts); the clean decks keep Q J K A 2 3 (and the 7s);
* the manilha is the rank after the vira in the deck in use, wrapping to the first; manilhas rank by suit,
  ouros < espadas < copas < paus, above every other card; equal common cards tie;
* a covered card is worth nothing and is not allowed in the first trick (art. 11.1);
* art. 11.2: the team that made the first trick wins by making or tying one of the others;
  art. 11.3: a tied first trick goes to who makes the second, or the third if the second ties too;
  art. 11.4: three tied tricks score nothing (options: the dealer's team, the first player's team);
  art. 20: a tied mão de ferro scores nothing (option ``iron_tie``);
* art. 11, 13: a hand is worth 1, raised to 3, 6, 9, 12; accepted, the raise is the value; who runs
  loses the value in play before the raise; art. 12: the player in turn raises, the teams alternating;
* art. 18: a mão de onze is worth 3, the team at 11 plays or runs (the opponents score
  ``eleven_run_points``); 11-11 is worth ``iron_hand_value``; art. 19: no raise in either;
* the game is to 12 (``score_cap``: a hand does not take a team past 12);
* art. 5: the dealer who looks at the bottom of the deck loses the deal, nobody scores (before the first card;
  option ``bottom_of_deck``: until the hand ends);
* art. 12: a raise by a player not in turn is a fault (option ``raises``: anyone, any time);
* art. 13: folding without a raise to refuse is a fault, the opponents scoring the value in play (option
  ``fold_any_time`` allows it);
* art. 16: a false call ("Jorge") counts as the call (option ``false_call``: a tento, the value in play);
* art. 17: the first decision of either partner stands; the partner's later answer is ignored (a note);
* art. 19: a raise in a mão de onze or de ferro costs 3, or the game when the opponents have 9-11 (option
  ``raise_in_eleven``: always the game, or the match);
* art. 24: a word of guidance loses the tento in play, the hand ends; art. 10 (burned card) and the house
  rules' tentos the same unless ``house_sanctions`` makes them a warning; a blind mão de ferro (option
  ``blind_iron_hand``) forbids looking at one's cards, a house tento;
* JTB (option ``show_highest_after_tied_first``): after a tied first trick each player shows the highest card;
* art. 6 in a mão de onze (option ``wrong_cards_in_eleven``): after a wrong deal, the dealer's opponents'
  truco before the first card is art. 6's (the dealer accepts: pays 3; runs: loses 1), or art. 19's raise.

Each report is compared with the engine's verdict on the result and on the faults found (code and article)
and art. 17's notes.
"""
from __future__ import annotations

import random

RANK_ORDER = ["4", "5", "6", "7", "Q", "J", "K", "A", "2", "3"]
SUIT_ORDER = ["ouros", "espadas", "copas", "paus"]
DECK_RANKS = {"sujo": RANK_ORDER, "limpo": ["Q", "J", "K", "A", "2", "3"], "limpo+7": ["7", "Q", "J", "K", "A", "2", "3"]}
LADDER = [1, 3, 6, 9, 12]
CALL_NAME = {3: "truco", 6: "seis", 9: "nove", 12: "doze"}
HOUSE = "regras 4 jogadores, tento"
#: every option of the rule set with its choices, by hand (not read from the engine)
OPTION_CHOICES = (
    ("deck", ["sujo", "limpo", "limpo+7"]), ("all_tied", ["nobody", "dealer_team", "first_player_team"]),
    ("iron_tie", ["nobody", "dealer_team", "first_player_team"]),
    ("lead_after_tie", ["tying_player", "first_player", "trick_leader", "first_tying_player", "nearest_tying_player"]),
    ("score_cap", [True, False]), ("iron_hand_value", [3, 1]), ("eleven_run_points", [1, 3]),
    ("cover_after_tied_first", [True, False]), ("show_highest_after_tied_first", [False, True]),
    ("raises", ["in_turn", "any_time"]), ("fold_any_time", [False, True]), ("false_call", ["truco", "tento"]),
    ("raise_in_eleven", ["art19", "game", "art19_match"]), ("blind_iron_hand", [False, True]),
    ("house_sanctions", ["tento", "warning"]), ("bottom_of_deck", ["before_first_card", "any_time"]),
    ("wrong_cards_in_eleven", ["art6", "art19"]),
)


def card_text(rank: str, suit: str) -> str:
    return f"{rank}-{suit}"


def strength(card: tuple[str, str], vira: tuple[str, str], deck: str, covered: bool = False) -> tuple:
    """How strong a shown card is, as a tuple that compares: manilhas above all, by suit; others by rank."""
    if covered:
        return (-1, 0)
    ranks = DECK_RANKS[deck]
    manilha = ranks[(ranks.index(vira[0]) + 1) % len(ranks)]
    if card[0] == manilha:
        return (1, SUIT_ORDER.index(card[1]))
    return (0, RANK_ORDER.index(card[0]))


def trick_outcome(shown: list[tuple[int, tuple]]) -> tuple[int | None, int, list[int]]:
    """(winning team or None, the winning seat, the seats that showed the top card), from (seat, strength)
    in the order played."""
    top = max(s for _, s in shown)
    tops = [seat for seat, s in shown if s == top]
    teams = {seat % 2 for seat in tops}
    if len(teams) == 2:
        return None, -1, tops
    return tops[0] % 2, tops[0], tops


def hand_outcome(tricks: list[int | None]) -> tuple[bool, int | None]:
    """art. 11.2-11.4 read literally: (decided, winning team or None for three ties)."""
    if len(tricks) < 2:
        return False, None
    first = tricks[0]
    if first is None:  # art. 11.3
        if tricks[1] is not None:
            return True, tricks[1]
        if len(tricks) < 3:
            return False, None
        return True, tricks[2]  # None: all three tied (art. 11.4)
    others = tricks[1:]
    if others[0] == first or others[0] is None:  # art. 11.2: made or tied one of the others
        return True, first
    if len(tricks) < 3:
        return False, None
    return True, first if tricks[2] in (first, None) else tricks[2]


def next_leader(option: str, shown: list[tuple[int, tuple]], tops: list[int], first_player: int,
                trick_leader: int) -> int:
    if option == "tying_player":
        return tops[-1]
    if option == "first_player":
        return first_player
    if option == "trick_leader":
        return trick_leader
    if option == "first_tying_player":
        return tops[0]
    return min(tops, key=lambda seat: (seat - first_player) % 4)  # nearest_tying_player


def random_options(rng: random.Random) -> dict:
    options = {}
    for name, choices in OPTION_CHOICES:
        if rng.random() < 0.4:
            options[name] = rng.choice(choices)
    return options


def play_hand(rng: random.Random, options: dict, faults_rate: float = 0.0) -> tuple[dict, dict]:
    """A random hand under ``options``: (the report, the expected result by the text). ``faults_rate``: the
    chance, at each player's turn, of a fault or a claim (a fold, a tento, art. 5, a raise in a mão de onze ...);
    calls are sometimes false (art. 16), out of turn (art. 12) or answered twice by a pair (art. 17)."""
    deck = options.get("deck", "sujo")
    cards = [(r, s) for r in DECK_RANKS[deck] for s in SUIT_ORDER]
    rng.shuffle(cards)
    vira, hands = cards[0], [cards[1 + 3 * seat: 4 + 3 * seat] for seat in range(4)]
    mirrored = rng.random() < 0.3  # a deal made for ties: each seat holds one card of the same three ranks
    if mirrored:
        ranks = DECK_RANKS[deck]
        manilha = ranks[(ranks.index(vira[0]) + 1) % len(ranks)]
        common = rng.sample([r for r in ranks if r not in (vira[0], manilha)], 3)
        suits = {rank: rng.sample(SUIT_ORDER, 4) for rank in common}
        hands = [sorted(((rank, suits[rank][seat]) for rank in common), key=lambda c: RANK_ORDER.index(c[0]))
                 for seat in range(4)]
    dealer = rng.randrange(4)
    first_player = (dealer + 1) % 4
    roll = rng.random()
    if roll < 0.1:
        score = [11, 11]
    elif roll < 0.25:
        score = [11, rng.randrange(11)] if rng.random() < 0.5 else [rng.randrange(11), 11]
    else:
        score = [rng.randrange(11), rng.randrange(11)]
    iron = score == [11, 11]
    eleven = None if iron else 0 if score[0] == 11 else 1 if score[1] == 11 else None
    value = options.get("iron_hand_value", 3) if iron else 3 if eleven is not None else 1
    events: list[dict] = []
    report = {"dealer": dealer, "vira": card_text(*vira), "score": list(score), "events": events,
              "rules": {"preset": "regulamento-tecnico", "options": dict(options)},
              "deal": {str(seat): [card_text(*c) for c in hands[seat]] for seat in range(4)}}
    faults: list[tuple[str, str]] = []  # (code, article) of each fault the text names
    decisions = [0]  # art. 17: partners' later answers, ignored
    played: list[list[tuple[str, str]]] = [[] for _ in range(4)]
    tricks: list[int | None] = []
    house_warning = options.get("house_sanctions", "tento") == "warning"

    def highest_not_shown() -> list[tuple[str, str]]:
        """JTB: after a tied first trick, the second card shown must be the highest the player still held."""
        if not options.get("show_highest_after_tied_first") or len(tricks) < 2 or tricks[0] is not None:
            return []
        return [("highest_not_shown", "JTB, melando o jogo, caso 1") for seat in range(4) if len(played[seat]) >= 2
                and any(strength(c, vira, deck) > strength(played[seat][1], vira, deck)
                        for c in hands[seat] if c not in played[seat][:2])]

    def result(winner: int | None, points: int, ended_by: str, match_loser: int | None = None) -> tuple[dict, dict]:
        after = list(score)
        if winner is not None:
            after[winner] += points
            if options.get("score_cap", True):
                after[winner] = min(after[winner], 12)
        game = 0 if after[0] >= 12 else 1 if after[1] >= 12 else None
        return report, {"winner": winner, "points": points, "ended_by": ended_by, "score_after": after,
                        "game_winner": game, "hand_value": value, "faults": sorted(faults + highest_not_shown()),
                        "pair_decisions": decisions[0], "match_loser": match_loser}

    def tento(code: str, article: str, offender: int, house: bool):
        """A claimed infraction whose sanction is the tento in play (art. 24; art. 10 and the house rules'
        tentos unless ``house_sanctions`` makes them a warning): the hand ends, or None (a warning)."""
        events.append({"seat": offender, "infraction": code})
        faults.append((code, article))
        if house and house_warning:
            return None
        return result(1 - offender % 2, value, "penalty")

    def raise_in_eleven(seat: int):
        """art. 19: the offender's team loses 3, or the game when the opponents have 9-11."""
        events.append({"seat": seat, "call": "truco"})
        offender = seat % 2
        theirs = score[1 - offender]
        option = options.get("raise_in_eleven", "art19")
        if option != "game" and theirs < 9:
            faults.append(("raise_in_eleven", "art. 19"))
            return result(1 - offender, 3, "penalty")
        faults.append(("raise_in_eleven", HOUSE if option == "game" else "art. 19"))
        return result(1 - offender, max(0, 12 - theirs), "penalty", offender if option == "art19_match" else None)

    if eleven is not None:
        if rng.random() < 0.2:
            events.append({"team": eleven, "eleven": "run"})
            value = options.get("eleven_run_points", 1)
            return result(1 - eleven, value, "eleven_refused")
        events.append({"team": eleven, "eleven": "play"})
    if rng.random() < faults_rate:  # art. 6 attested before the first card, then the dealer's opponents truco
        events.append({"seat": dealer, "infraction": "wrong_card_count"})
        faults.append(("wrong_card_count", "art. 6"))
        caller = first_player  # the dealer's opponent in turn (art. 12)
        answerer = rng.choice([s for s in range(4) if s % 2 == dealer % 2])
        if (eleven is not None or iron) and options.get("wrong_cards_in_eleven", "art6") == "art19":
            return raise_in_eleven(caller)
        events.append({"seat": caller, "call": "truco"})
        if rng.random() < 0.5:
            events.append({"seat": answerer, "answer": "accept"})  # art. 6: the dealer pays three
            faults.append(("wrong_card_count", "art. 6"))
            value = 3
            return result(caller % 2, 3, "penalty")
        events.append({"seat": answerer, "answer": "run"})
        if eleven is not None or iron:  # art. 6: "se correr, perde um tento"
            faults.append(("wrong_card_count", "art. 6"))
            return result(caller % 2, 1, "penalty")
        return result(caller % 2, value, "run")  # a truco refused before any raise: 1 (art. 13)
    may_raise = eleven is None and not iron
    last_raiser = None
    held = [list(h) for h in hands]
    leader = first_player
    while True:
        shown = []
        for offset in range(4):
            seat = (leader + offset) % 4
            team = seat % 2
            if rng.random() < faults_rate:
                kinds = ["guidance", "burned", "stolen", "fold"]
                if not tricks and not shown or options.get("bottom_of_deck") == "any_time":
                    kinds.append("bottom")
                if iron and options.get("blind_iron_hand"):
                    kinds.append("blind")
                if eleven is not None or iron:
                    kinds += ["raise11", "raise11"]
                kind = rng.choice(kinds)
                offender = rng.randrange(4)
                ended = None
                if kind == "guidance":
                    ended = tento("guidance_word", "art. 24", offender, False)
                elif kind == "burned":
                    ended = tento("burned_card", "art. 10", offender, True)
                elif kind == "stolen":
                    ended = tento("stolen_card", HOUSE + ", ex. 1", offender, True)
                elif kind == "blind":
                    ended = tento("saw_cards_blind_iron", "JTB, mão de ferro; como jogar", offender, True)
                elif kind == "fold":  # art. 13: no raise to refuse; a fault unless fold_any_time
                    events.append({"seat": seat, "fold": True})
                    if not options.get("fold_any_time"):
                        faults.append(("fold_not_allowed", "art. 13"))
                    return result(1 - team, value, "fold")
                elif kind == "bottom":  # art. 5: the dealer loses the deal, nobody scores
                    events.append({"seat": dealer, "infraction": "bottom_of_deck"})
                    faults.append(("bottom_of_deck", "art. 5"))
                    return result(None, 0, "deal_lost")
                else:
                    return raise_in_eleven(seat)
                if ended is not None:
                    return ended
            if may_raise and value < 12 and last_raiser != team and rng.random() < 0.15:
                caller, asked = team, LADDER[LADDER.index(value) + 1]
                who = seat
                if rng.random() < 0.2:  # the partner raises, not in turn: art. 12 unless raises any_time
                    who = (seat + 2) % 4
                    if options.get("raises", "in_turn") == "in_turn":
                        faults.append(("raise_out_of_turn", "art. 12"))
                call = {"seat": who, "call": CALL_NAME[asked]}
                if rng.random() < 0.15:  # art. 16: a false call
                    call["said"] = "Jorge"
                    events.append(call)
                    if options.get("false_call", "truco") == "tento":
                        faults.append(("false_call", HOUSE))
                        return result(1 - caller, value, "penalty")
                    faults.append(("false_call", "art. 16"))
                else:
                    events.append(call)
                while True:  # the other team answers: run, raise back, or accept
                    answerer = rng.choice([s for s in range(4) if s % 2 != caller])
                    roll = rng.random()
                    if roll < 0.25:
                        events.append({"seat": answerer, "answer": "run"})
                        if rng.random() < 0.2:  # art. 17: the partner accepts after the run: ignored
                            events.append({"seat": (answerer + 2) % 4, "answer": "accept"})
                            decisions[0] += 1
                        return result(caller, value, "run")  # art. 13: the value before the raise
                    if roll < 0.4 and asked < 12:
                        value, caller = asked, 1 - caller  # a raise-back accepts the call it answers
                        asked = LADDER[LADDER.index(value) + 1]
                        events.append({"seat": answerer, "call": CALL_NAME[asked]})
                        continue
                    events.append({"seat": answerer, "answer": "accept"})
                    if rng.random() < 0.2:  # art. 17: the partner answers too: the first decision stands
                        events.append({"seat": (answerer + 2) % 4, "answer": rng.choice(["run", "accept"])})
                        decisions[0] += 1
                    value, last_raiser = asked, caller
                    break
            card = held[seat].pop(0 if mirrored and rng.random() < 0.9 else rng.randrange(len(held[seat])))
            played[seat].append(card)
            may_cover = bool(tricks) and (tricks[0] is not None or options.get("cover_after_tied_first", True))
            covered = may_cover and rng.random() < 0.1
            events.append({"seat": seat, "play": card_text(*card), **({"covered": True} if covered else {})})
            shown.append((seat, strength(card, vira, deck, covered)))
        team, seat, tops = trick_outcome(shown)
        tricks.append(team)
        decided, winner = hand_outcome(tricks)
        if decided:
            if winner is not None:
                return result(winner, value, "tricks")
            option = options.get("iron_tie" if iron else "all_tied", "nobody")
            tied_winner = None if option == "nobody" else dealer % 2 if option == "dealer_team" else first_player % 2
            return result(tied_winner, value if tied_winner is not None else 0, "iron_tie" if iron else "all_tied")
        leader = seat if team is not None else next_leader(options.get("lead_after_tie", "tying_player"), shown,
                                                           tops, first_player, leader)
