"""The engine's refusals as data: every :class:`~referee.engine.errors.ReportError` is a code, its article and
its parameters.

A report that cannot be read (a hand report, a summary, a claim) is refused with ``{"field", "code",
"article", "params", "message"}``: ``code`` names the sentence in :data:`ERRORS`, ``article`` the
regulation's article it applies ("" when the refusal is about the report's form, not a rule), ``params``
what it speaks of. ``message`` is the Portuguese sentence with the pairs as "a dupla 0"; the Django pages
and ``check_hand --lang en`` render it again (``referee.engine.messages.render``) in the reader's language
with the pairs' names. The placeholders are those of :mod:`referee.engine.messages`. Every code is
documented in docs/hand-report.md (``tests/referee/test_engine_error_codes.py``). Pure Python: no Django.
"""
from __future__ import annotations

#: code -> (article, Portuguese, English)
ERRORS: dict[str, tuple[str, str, str]] = {
    # the report's shape (verdict.py)
    "report.not_object": ("", "o relato da mão deve ser um objeto JSON", "the hand report must be a JSON object"),
    "report.unknown_field": ("", "campo desconhecido; campos: {fields}", "unknown field; the fields are: {fields}"),
    "report.dealer": ("", "o pé (dealer) deve ser um assento de 0 a 3", "the dealer must be a seat from 0 to 3"),
    "report.vira": ("", "informe a vira, por exemplo \"4-ouros\"", "give the vira, for example \"4-ouros\""),
    "report.events": ("", "informe os eventos da mão, em ordem, numa lista",
                      "give the hand's events, in order, in a list"),
    "report.too_many_events": ("", "{count} eventos: uma mão cabe em no máximo {max}",
                               "{count} events: a hand holds at most {max}"),
    "report.score_over": ("", "o placar {a}-{b} já encerrou a partida (12 pontos)",
                          "the score {a}-{b} has already ended the game (12 points)"),
    "report.score": ("", "o placar antes da mão deve ser [pontos da dupla 0, pontos da dupla 1]",
                     "the score before the hand must be [points of team 0, points of team 1]"),
    "report.nested": ("", "o relato é aninhado demais para ser lido", "the report is nested too deeply to be read"),
    "report.internal": ("", "erro interno do motor de regras ({error})", "internal error of the rules engine ({error})"),
    "deal.not_object": ("", "as cartas dadas devem ser um objeto {\"0\": [...], ..., \"3\": [...]}",
                        "the cards dealt must be an object {\"0\": [...], ..., \"3\": [...]}"),
    "deal.seats": ("", "os assentos são \"0\", \"1\", \"2\" e \"3\"", "the seats are \"0\", \"1\", \"2\" and \"3\""),
    "deal.list": ("", "as cartas de um assento devem ser uma lista", "a seat's cards must be a list"),
    "deal.missing": ("", "assentos sem cartas: {seats}", "seats without cards: {seats}"),
    "deal.not_in_deck": ("", "{card} não faz parte do baralho em uso", "{card} is not in the deck in use"),
    "deal.twice": ("", "{card} aparece duas vezes (ou é a vira)", "{card} appears twice (or is the vira)"),
    # cards (cards.py, hand.py)
    "card.not_text": ("", "a carta deve ser um texto como \"7-paus\", \"7P\", \"7♣\" ou \"7 de paus\", não {value}",
                      "a card is a text such as \"7-paus\", \"7P\", \"7♣\" or \"7 de paus\", not {value}"),
    "card.invalid": ("", "carta inválida {value}: use posto (4 5 6 7 Q J K A 2 3) e naipe, como \"7-paus\", "
                     "\"7P\", \"7♣\" ou \"7 de paus\" (não há 8, 9 e 10 no truco)",
                     "invalid card {value}: give a rank (4 5 6 7 Q J K A 2 3) and a suit, such as \"7-paus\", "
                     "\"7P\", \"7♣\" or \"7 de paus\" (there are no 8, 9 and 10 in truco)"),
    "card.vira": ("", "{card} é a vira; não pode ser jogada", "{card} is the vira; it cannot be played"),
    "card.not_in_deck": ("", "{card} não faz parte do baralho {deck}", "{card} is not in the deck {deck}"),
    "card.played": ("", "{card} já foi jogada nesta mão", "{card} was already played in this hand"),
    # events (hand.py)
    "event.not_object": ("", "cada evento deve ser um objeto JSON", "each event must be a JSON object"),
    "event.actions": ("", "o evento deve ter exatamente uma ação: play, call, answer, eleven, infraction, fold, ask "
                      "ou prove", "an event has exactly one action: play, call, answer, eleven, infraction, fold, ask "
                      "or prove"),
    "event.unknown_field": ("", "campo desconhecido num evento {kind}; campos: {fields}",
                            "unknown field in a {kind} event; the fields are: {fields}"),
    "event.seat": ("", "o assento deve ser um inteiro de 0 a 3", "the seat must be an integer from 0 to 3"),
    "event.team": ("", "a dupla deve ser 0 (assentos 0 e 2) ou 1 (assentos 1 e 3)",
                   "the team must be 0 (seats 0 and 2) or 1 (seats 1 and 3)"),
    "event.after_hand": ("", "a mão já terminou ({ended_by}) antes deste evento",
                         "the hand had already ended ({ended_by}) before this event"),
    "play.two_cards": ("art. 22", "duas cartas de uma vez: informe [carta de baixo, carta de cima]",
                       "two cards at once: give [bottom card, top card]"),
    "play.covered": ("", "\"covered\" deve ser true ou false", "\"covered\" must be true or false"),
    "play.seat_played": ("", "o assento {seat} já jogou na vaza {trick}", "seat {seat} already played in trick {trick}"),
    "play.three_cards": ("", "o assento {seat} já jogou as suas três cartas", "seat {seat} already played its three cards"),
    "play.not_dealt": ("", "{card} não foi dada ao assento {seat} (cartas: {cards})",
                       "{card} was not dealt to seat {seat} (cards: {cards})"),
    "play.call_pending": ("art. 13, 17", "há um {call} pendente: {team} {team@verb:aceita:aceitam}, "
                          "{team@verb:corre:correm} ou {team@verb:aumenta:aumentam} antes de qualquer carta (art. 13, 17)",
                          "a {call} is pending: {team} accepts, runs or raises before any card (art. 13, 17)"),
    "call.unknown": ("art. 13", "chamada desconhecida {value}: truco, seis, nove ou doze",
                     "unknown call {value}: truco, seis, nove or doze"),
    "call.said": ("art. 15", "\"said\" deve ser o texto dito pelo jogador", "\"said\" must be the text the player said"),
    "answer.unknown": ("art. 13", "resposta desconhecida {value}: accept ou run", "unknown answer {value}: accept or run"),
    "answer.nothing_pending": ("art. 13", "não há provocação pendente para responder", "there is no pending raise to answer"),
    "answer.caller": ("art. 13", "o assento {seat} é da dupla que provocou; {team@verb:responde:respondem} {team}",
                      "seat {seat} belongs to the team that raised; {team} answers"),
    "eleven.undecided": ("art. 18", "mão de onze: {team} {team@verb:decide:decidem} jogar ou correr antes da primeira "
                         "carta (art. 18; evento {\"team\": {number}, \"eleven\": \"play\"} ou \"run\")",
                         "mão de onze: {team} decides to play or run before the first card (art. 18; event "
                         "{\"team\": {number}, \"eleven\": \"play\"} or \"run\")"),
    "eleven.none": ("art. 18", "só há decisão de mão de onze quando uma dupla, e só uma, tem onze",
                    "there is a mão de onze decision only when one team, and only one, has eleven"),
    "eleven.team": ("art. 18", "quem decide a mão de onze é {team} (art. 18)", "the mão de onze is decided by {team} (art. 18)"),
    "eleven.decided": ("art. 18", "a mão de onze já foi decidida", "the mão de onze was already decided"),
    "eleven.unknown": ("art. 18", "decisão desconhecida: play ou run", "unknown decision: play or run"),
    "prove.team": ("art. 21", "só a dupla com onze pode provar a vitória (art. 21)", "only the team at eleven may prove the win (art. 21)"),
    "prove.after_card": ("art. 21", "a prova do art. 21 é feita antes da primeira carta", "the proof of art. 21 is made before the first card"),
    "prove.no_deal": ("art. 21", "para conferir a prova do art. 21 informe as cartas dadas (\"deal\")",
                      "give the cards dealt (\"deal\") to check the proof of art. 21"),
    "prove.twice": ("art. 21", "a prova do art. 21 é uma só por mão: esta mão já teve a sua",
                    "one proof of art. 21 per hand: this hand already had its own"),
    "fold.true": ("art. 13", "use \"fold\": true", "use \"fold\": true"),
    "ask.cards": ("art. 6", "use \"ask\": \"cards\" (o pé pergunta se todos têm três cartas)",
                  "use \"ask\": \"cards\" (the dealer asks whether everyone has three cards)"),
    # claims (rulings.py, hand.py); {why} is one of the refusal.* messages
    "infraction.unknown": ("", "infração desconhecida {value}; códigos: {codes}", "unknown infraction {value}; codes: {codes}"),
    "infraction.seat": ("", "o assento do infrator deve ser de 0 a 3", "the offender's seat must be 0 to 3"),
    "infraction.refused": ("", "{what} ({article}) não cabe aqui: {why}", "{what} ({article}) does not apply here: {why}"),
    "infraction.outcome": ("art. 6", "informe se o pé, trucado, aceitou, correu ou perguntou (art. 6)",
                           "say whether the dealer, trucado, accepted, ran or asked (art. 6)"),
    "infraction.eleven_only": ("art. 19", "raise_in_eleven (art. 19) só cabe na mão de onze ou de ferro",
                               "raise_in_eleven (art. 19) applies only in a mão de onze or de ferro"),
    "refusal.dealer": ("", "o infrator é o pé (assento {dealer}), não o assento {seat}",
                       "the offender is the dealer (seat {dealer}), not seat {seat}"),
    "refusal.start": ("", "só pode ser pedida no início da mão, antes da primeira carta",
                      "it may be claimed only at the start of the hand, before the first card"),
    "refusal.deal_window": ("art. 5", "só pode ser pedida no início da mão, antes da primeira carta (art. 5, entre as "
                            "regras do carteado)", "it may be claimed only at the start of the hand, before the first "
                            "card (art. 5, among the rules of the deal)"),
    "refusal.raised": ("art. 14", "só vale quando a dupla do infrator está sendo provocada (art. 14)",
                       "it applies only when the offender's team faces a raise (art. 14)"),
    "refusal.eleven_opponents": ("art. 18", "a dupla com onze pode ver as cartas do parceiro; a proibição é da outra "
                                 "dupla, ou de todos na mão de ferro (art. 18)",
                                 "the team at eleven may see the partner's cards; the ban is the other team's, or "
                                 "everyone's in a mão de ferro (art. 18)"),
    "refusal.wrong_deal": ("art. 6", "não há carta de mais ou de menos registrada (art. 6)",
                           "no card too many or too few is recorded (art. 6)"),
    "refusal.blind_iron": ("", "só na mão de ferro jogada às cegas", "only in a mão de ferro played blind"),
    # rule sets (rules.py)
    "rules.not_object": ("", "as regras devem ser um objeto {\"preset\": ..., \"options\": {...}}",
                         "the rules must be an object {\"preset\": ..., \"options\": {...}}"),
    "rules.unknown_field": ("", "campo desconhecido; use \"preset\" e \"options\"", "unknown field; use \"preset\" and \"options\""),
    "rules.options": ("", "as opções devem ser um objeto", "the options must be an object"),
    "rules.preset": ("", "conjunto de regras desconhecido {value}; conhecidos: {known}",
                     "unknown rule set {value}; known: {known}"),
    "rules.option": ("", "opção desconhecida; as opções são: {known}", "unknown option; the options are: {known}"),
    "rules.option_value": ("", "valor {value} não permitido; valores: {allowed}", "value {value} not allowed; values: {allowed}"),
    # a game (game.py)
    "game.draws": ("", "informe a carta tirada por cada assento (0 a 3)", "give the card drawn by each seat (0 to 3)"),
    "claimed.object": ("", "o resultado anotado deve ser {\"winner\": 0, 1 ou null, \"points\": n}",
                       "the noted result must be {\"winner\": 0, 1 or null, \"points\": n}"),
    "claimed.winner": ("", "a dupla vencedora anotada deve ser 0, 1 ou null", "the noted winning team must be 0, 1 or null"),
    "claimed.points": ("", "os pontos anotados devem ser um inteiro", "the noted points must be an integer"),
    # a hand entered as a summary (summary.py)
    "summary.game_over": ("", "a partida já terminou ({a} a {b}): não há mais mãos",
                          "the game is over ({a} to {b}): no more hands"),
    "summary.not_object": ("", "a mão deve ser um objeto {\"winner\", \"ended_by\", \"value\"}",
                           "the hand must be an object {\"winner\", \"ended_by\", \"value\"}"),
    "summary.ended_by": ("", "término desconhecido {value}; use {endings}", "unknown ending {value}; use {endings}"),
    "summary.winner": ("", "a dupla que marcou deve ser 0, 1 ou null", "the scoring team must be 0, 1 or null"),
    "summary.value_int": ("", "o valor da mão deve ser um inteiro", "the hand's value must be an integer"),
    "summary.no_run": ("art. 19", "não há provocação na mão de onze nem na de ferro: não há de quem correr (art. 19)",
                       "there is no raise in a mão de onze or de ferro: nothing to run from (art. 19)"),
    "summary.no_eleven": ("art. 18", "só se corre da mão de onze quando uma dupla, e só uma, tem onze (art. 18)",
                          "one runs from a mão de onze only when one team, and only one, has eleven (art. 18)"),
    "summary.no_fold": ("art. 13", "desistir da mão sem provocação não é permitido neste conjunto de regras (art. 13)",
                        "giving up the hand without a raise is not allowed in this rule set (art. 13)"),
    "summary.no_ending": ("", "uma mão não termina assim ({ended_by}) nesta situação ({state})",
                          "a hand does not end this way ({ended_by}) in this situation ({state})"),
    "summary.eleven_value": ("art. 18, 19", "a mão de onze vale 3 e não pode ser trucada (art. 18, 19); não {value}",
                             "a mão de onze is worth 3 and cannot be raised (art. 18, 19); not {value}"),
    "summary.iron_value": ("art. 18, 19", "a mão de ferro vale {choices} e não pode ser trucada (art. 18, 19); não {value}",
                           "a mão de ferro is worth {choices} and cannot be raised (art. 18, 19); not {value}"),
    "summary.run_value": ("art. 13", "quem corre perde o valor em jogo antes do aumento: {choices} (art. 13); não {value}",
                          "who runs loses the value in play before the raise: {choices} (art. 13); not {value}"),
    "summary.no_points": ("art. 5, 6, 11.4", "ninguém marca ponto nesta mão (art. 5, 6, 11.4)",
                          "nobody scores in this hand (art. 5, 6, 11.4)"),
    "summary.value": ("art. 11, 13", "a mão vale {choices} (art. 11, 13: um, três, seis, nove ou doze); não {value}",
                      "the hand is worth {choices} (art. 11, 13: one, three, six, nine or twelve); not {value}"),
    "summary.deal_lost": ("art. 5, 6", "com o carteado perdido ninguém marca ponto (art. 5, art. 6)",
                          "with the deal lost nobody scores (art. 5, art. 6)"),
    "summary.all_tied": ("art. 11.4", "com as três vazas empatadas {who} ({article}; regras: {preset})",
                         "with the three tricks tied {who} ({article}; rules: {preset})"),
    "summary.tied_winner": ("", "{team@verb:marca:marcam} {team}", "{team} scores"),
    "summary.eleven_runner": ("art. 18", "quem corre da mão de onze {eleven_team@verb:é:são} {eleven_team}: {team@verb:marca:marcam} {team}",
                              "the team that runs from the mão de onze is {eleven_team}: {team} scores"),
    "summary.winner_missing": ("", "informe a dupla que marcou os pontos", "say which team scored the points"),
}
