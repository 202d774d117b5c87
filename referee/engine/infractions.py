"""The infraction catalog: code, article, description in Portuguese and the consequence.

The engine applies these when a report contains ``{"seat": s, "infraction": code}`` and
detects the ones marked ``detected`` on its own. Consequences:

- ``deal_lost``: the deal is lost, nobody scores, the deal passes on (art. 5, art. 6 "perguntar");
- ``tento``: the offender's team loses the tento in play, the value of the hand at that
  moment (regras 4 jogadores, "o valor do tento"); the opponents score it and the hand ends;
- ``none``: recorded only, the play goes on as the article says (art. 22, 23).

``sanction`` names where the consequence comes from: ``regulation`` when the article states it;
``house`` when the article forbids without a sanction (art. 10, 14, 18) or the infraction is the house
rules' own, and the tento is filled in from the house rules (regras 4 jogadores, "o valor do tento").
A house-rule sanction is marked as such wherever a referee sees it (its messages say so), and the rule set's
option ``house_sanctions`` ("tento" or "warning") sets it per tournament.

``requires`` names when a claim is allowed at all; a report that claims it otherwise is
malformed: ``dealer`` (the offender is the dealer: art. 5, 6 sit under "o pé de jogo"),
``raised`` (the offender's team faces a raise: art. 14 "quando for provocado"),
``eleven_opponents`` (a mão de onze and the offender is not at 11, or a mão de ferro: art. 18),
``start`` (before the first card: art. 6, regras 4 jogadores "só ao começar o jogo"),
``deal_window`` (art. 5: before the first card, or until the hand ends with ``bottom_of_deck: "any_time"``),
``wrong_deal`` (a wrong deal is established: art. 6), ``blind_iron`` (a blind mão de ferro).

``after_hand``: the house rules' tentos "a qualquer momento" (ex. 1-3) may also be claimed once the hand
is over (ex. 2: "após o encerramento daquela mão"; ex. 3: the count of points); ``after_hand_value``
``refused_raise``: after a refused raise that tento is worth the raise (ex. 2: "3 pontos ao invés de 1").
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Infraction:
    code: str
    article: str
    title: str  # Portuguese, shown to referees
    consequence: str  # deal_lost | tento | none
    claim_window: str  # when a claim is allowed, in words
    detected: bool = False  # found by the engine from the report itself
    requires: tuple[str, ...] = ()  # conditions checked before the claim is accepted
    sanction: str = "regulation"  # regulation | house: where the consequence comes from
    after_hand: bool = False  # may also be claimed after the hand ended (house rules: "a qualquer momento")
    after_hand_value: str = "hand"  # hand | refused_raise: the tento's value when claimed after the hand

    @property
    def house_sanction(self) -> bool:
        return self.sanction == "house"


HOUSE = "regras 4 jogadores, tento"

CATALOG: dict[str, Infraction] = {i.code: i for i in (
    Infraction("bottom_of_deck", "art. 5", "Olhou a boca do baralho",
               "deal_lost", "antes da primeira carta (opção bottom_of_deck: até o fim da mão)",
               requires=("dealer", "deal_window")),
    Infraction("wrong_card_count", "art. 6",
               "Deu carta de mais ou de menos (trucado, o pé paga três se aceitar, "
               "perde um se correr, perde o carteado se perguntar)", "none", "só no início da mão", detected=True, requires=("start",)),
    Infraction("dealer_asked", "art. 6", "O pé perguntou depois de dar carta errada",
               "deal_lost", "só no início da mão", requires=("dealer", "wrong_deal")),
    Infraction("burned_card", "art. 10", "Queimou carta (não permitido, nem o quatro de ouros)",
               "tento", "durante a mão", sanction="house"),
    Infraction("covered_first_trick", "art. 11.1", "Carta encoberta na primeira vaza (deve ser mostrada)",
               "none", "na primeira vaza", detected=True),
    Infraction("saw_partner_cards", "art. 14", "Viu as cartas do parceiro quando provocado",
               "tento", "diante de uma provocação", requires=("raised",), sanction="house"),
    Infraction("false_call", "art. 16", "Provocação com palavreado (\"Jorge\", \"Truca\", \"Turco\"...)",
               "none", "na chamada", detected=True),
    Infraction("saw_partner_cards_eleven", "art. 18",
               "Viu as cartas do parceiro na mão de onze sem estar com onze, ou na mão de ferro",
               "tento", "na mão de onze ou de ferro", requires=("eleven_opponents",), sanction="house"),
    Infraction("raise_in_eleven", "art. 19",
               "Trucou em mão de onze",
               "none", "na chamada", detected=True),
    Infraction("two_cards_at_once", "art. 22",
               "Jogou duas cartas de uma vez: a de baixo vale na vaza, a de cima é a torna",
               "none", "na jogada", detected=True),
    Infraction("card_out_of_turn", "art. 23",
               "Jogou fora da vez: a carta fica na mesa e o jogador da vez pode matá-la",
               "none", "na jogada", detected=True),
    Infraction("guidance_word", "art. 24",
               "Palavra de orientação ao parceiro (\"deixa\", \"mata\", \"joga menor\"...)",
               "tento", "durante a mão"),
    Infraction("saw_cards_blind_iron", "JTB, mão de ferro; como jogar", "Olhou as próprias cartas na mão de ferro "
               "jogada no escuro", "tento", "na mão de ferro às cegas", requires=("blind_iron",), sanction="house"),
    Infraction("stolen_card", HOUSE + ", ex. 1", "Roubo de cartas", "tento", "a qualquer momento",
               sanction="house", after_hand=True),
    Infraction("looked_at_covered", HOUSE + ", ex. 2", "Olhou cartas encobertas ou do monte",
               "tento", "a qualquer momento", sanction="house", after_hand=True, after_hand_value="refused_raise"),
    Infraction("stolen_points", HOUSE + ", ex. 3", "Roubo de pontos na contagem",
               "tento", "a qualquer momento", sanction="house", after_hand=True),
)}


def infraction(code: str) -> Infraction | None:
    return CATALOG.get(code)
