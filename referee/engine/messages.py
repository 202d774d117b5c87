"""Messages as data: every violation, note and ruling the engine reports is a key and its parameters.

The replay records ``{"code", "article", "event", "key", "params", "message"}``: ``key`` names the
sentence in :data:`MESSAGES`, ``params`` holds what it speaks of (seats, teams, values, cards, calls),
and ``message`` is that sentence rendered in Portuguese with the pairs as "a dupla 0" / "a dupla 1"
(the engine's own words, as ``check_hand`` prints them by default). Whoever shows a verdict renders
it again with :func:`render` in the reader's language (``pt`` or ``en``) and with the pairs' names
(``team_words``): the Django pages pass the match's names (``scoring.words.engine_messages``),
``check_hand --lang en`` renders English.

The engine's refusals (a report, a summary or a claim it cannot read: ``ReportError``) are data the same
way, their codes in ``error_messages.ERRORS`` (with the article each applies); :data:`TEXTS` holds both,
:func:`render` and :func:`render_error` read either. docs/hand-report.md documents every key and code.

Placeholders: ``{name}`` a parameter; a parameter whose name ends in ``team`` (``team``, ``offender``,
``beneficiary``, ``claimed_team`` …) is a pair: ``{team}`` names it as a subject ("a dupla 0", "os
Zapeiros"), ``{team@of}`` after "de" ("da dupla 0", "dos Zapeiros"), ``{team@verb:perde:perdem}`` a
verb agreeing with it; ``{what@lower}`` a title inside a sentence (first letter lower case); a
parameter holding an enum value (``ended_by``, ``state``, ``preset``) is shown in words (:data:`PARAM_WORDS`)
and a list of codes a request may send (:data:`QUOTED_LISTS`) quoted, so no code reads as a word;
``{points@n:ponto:pontos}`` a count with its noun in the right number; a seat
(``seat``, ``turn``, ``dealer``) is named by ``seat_words``: ``{seat@seat}`` bare ("assento 1", or "Ana
Souza, dos Zaps"), ``{seat@seat_the}`` as a subject ("o assento 1"), ``{seat@seat_of}`` after "de" ("do
assento 1"); the pages pass the players' names, so a record names people, never a seat. Pure Python: no
Django.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from .error_messages import ERRORS

#: key -> (Portuguese, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # art. 6
    "wrong_card_count.dealt": ("{seat@seat_the} recebeu {count} cartas em vez de 3",
                               "{seat@seat_the} was dealt {count} cards instead of 3"),
    "wrong_card_count.accepted": ("o pé, trucado por dar carta errada, aceitou: paga três",
                                  "the dealer, trucado after a wrong deal, accepted: pays three"),
    "wrong_card_count.ran": ("o pé, trucado por dar carta errada, correu: perde um tento",
                             "the dealer, trucado after a wrong deal, ran: loses one point"),
    "wrong_card_count.attested": ("carta de mais ou de menos atestada ({seat@seat})",
                                  "a card too many or too few, attested ({seat@seat})"),
    "dealer_asked": ("o pé, trucado por dar carta errada, perguntou: perde o carteado",
                     "the dealer, trucado after a wrong deal, asked: loses the deal"),
    "ask_without_effect.not_dealer": ("pergunta sem efeito na mão (art. 6: só o pé, {dealer@seat}, responde perguntando)",
                                      "a question with no effect on the hand (art. 6: only the dealer, {dealer@seat}, "
                                      "answers by asking)"),
    "ask_without_effect.right_deal": ("pergunta sem efeito na mão (art. 6: não houve carta de mais ou de menos)",
                                      "a question with no effect on the hand (art. 6: no card too many or too few)"),
    "ask_without_effect.playing": ("pergunta sem efeito na mão (art. 6: a mão já está sendo jogada)",
                                   "a question with no effect on the hand (art. 6: the hand is already being played)"),
    "ask_without_effect.not_trucado": ("pergunta sem efeito na mão (art. 6: o pé só pergunta quando trucado pela carta "
                                       "errada)",
                                       "a question with no effect on the hand (art. 6: the dealer asks only when trucado "
                                       "for the wrong deal)"),
    # art. 11, 22, 23 and the JTB variants
    "covered_first_trick": ("{card} jogada encoberta na primeira vaza; vale como mostrada",
                            "{card} played covered in the first trick; it counts as shown"),
    "cover_after_tied_first": ("{card} encoberta depois da primeira vaza empatada; vale como mostrada",
                               "{card} covered after a tied first trick; it counts as shown"),
    "two_cards_at_once": ("{seat@seat_the} jogou duas cartas: a de baixo, {card}, vale nesta vaza; a de cima é a torna "
                          "da vaza seguinte",
                          "{seat@seat_the} played two cards: the bottom one, {card}, counts in this trick; the top one is "
                          "the torna of the next"),
    "card_out_of_turn": ("{seat@seat_the} jogou fora da vez (a vez era {turn@seat_of}); a carta fica na mesa e vale, "
                         "e o jogador da vez ainda pode matá-la",
                         "{seat@seat_the} played out of turn ({turn@seat_the} was in turn); the card stays and counts, and "
                         "the player in turn may still kill it"),
    "hand_incomplete": ("os eventos terminam antes de a mão ser decidida ({tricks@n:vaza completa:vazas completas})",
                        "the events end before the hand is decided ({tricks@n:complete trick:complete tricks})"),
    "highest_not_shown": ("{seat@seat_the} não mostrou a sua maior carta na segunda vaza após o empate",
                          "{seat@seat_the} did not show the highest card in the second trick after the tie"),
    # art. 12, 13, 15, 16, 17
    "raise_not_alternating.pending": ("{team} {team@verb:aumentou:aumentaram} a própria provocação, ainda pendente; "
                                      "as duplas alternam e o {pending} continua pendente",
                                      "{team} raised {team@verb:its:their} own call, still pending; the teams alternate and the "
                                      "{pending} stays pending"),
    "raise_not_alternating.last": ("{team} {team@verb:fez:fizeram} a última provocação; o próximo aumento é da outra dupla",
                                   "{team} made the last raise; the next raise is the other team's"),
    "raise_beyond_twelve.pending": ("há um doze pendente e nada vai além do doze: a chamada não vale; {team} "
                                    "{team@verb:aceita:aceitam} ou {team@verb:corre:correm} do doze",
                                    "a doze is pending and nothing goes above doze: the call does not count; {team} "
                                    "{team@verb:accepts:accept} or {team@verb:runs:run} from the doze"),
    "raise_beyond_twelve.worth": ("a mão já vale doze: não há aumento", "the hand is already worth twelve: no raise"),
    "raise_out_of_turn": ("{seat@seat_the} provocou fora da vez (a vez era {turn@seat_of})",
                          "{seat@seat_the} raised out of turn ({turn@seat_the} was in turn)"),
    "raise_out_of_order": ("pediu {call} com a mão valendo {value}; a ordem é truco, seis, nove, doze (vale como {counts_as})",
                           "called {call} with the hand worth {value}; the order is truco, seis, nove, doze (it counts "
                           "as {counts_as})"),
    "false_call": ("\"{said}\" não é uma chamada clara (art. 15); vale como {counts_as} se aceita",
                   "\"{said}\" is not a clear call (art. 15); it counts as {counts_as} if accepted"),
    "fold_not_allowed": ("{team} {team@verb:desistiu:desistiram} da mão sem estar diante de uma provocação da outra "
                         "dupla; correr só é possível diante de uma provocação",
                         "{team} gave up the hand while facing no raise of the other team; one runs only from a raise"),
    "proof_not_settled": ("a prova {team@of} não pôde ser conferida a tempo (jogo complexo demais); a prova é recusada "
                          "e a mão deve ser jogada",
                          "the proof of {team} could not be checked in time (too complex a position); it is refused "
                          "and the hand must be played"),
    "proof_failed": ("as cartas {team@of} não garantem a vitória; a mão deve ser jogada",
                     "the cards of {team} do not guarantee the win; the hand must be played"),
    "claim_mismatch": ("a mesa anotou {claimed}; pelas regras, {actual}", "the table noted {claimed}; by the rules, {actual}"),
    "claim.nobody": ("que ninguém marca", "that nobody scores"),
    "claim.team": ("{points@n:ponto:pontos} para {team}", "{points@n:point:points} for {team}"),
    "actual.nobody": ("ninguém marca", "nobody scores"),
    "actual.team": ("{team} {team@verb:marca:marcam} {points@n:ponto:pontos}", "{team} {team@verb:scores:score} {points@n:point:points}"),
    # notes
    "note.repeated_call": ("{seat@seat_the} repetiu o {call} já pedido pela sua dupla; a chamada pendente não muda",
                           "{seat@seat_the} repeated the {call} its team already called; the pending call does not change"),
    "note.pair_decision": ("vale a primeira decisão da dupla, a {seat@seat_of}; esta decisão do parceiro foi ignorada",
                           "the team's first decision stands, {seat@seat_the}'s; this decision of the partner was ignored"),
    "note.art6_truco": ("truco pela carta errada (art. 6), não um aumento da mão de onze (art. 19): o pé aceita e paga "
                        "três, corre e perde um, ou pergunta e perde o carteado",
                        "a truco for the wrong deal (art. 6), not a raise of the mão de onze (art. 19): the dealer "
                        "accepts and pays three, runs and loses one, or asks and loses the deal"),
    # rulings (a claimed or detected infraction): "{what}: {consequence}"
    "ruling": ("{what} ({seat@seat}): {consequence}", "{what} ({seat@seat}): {consequence}"),
    "ruling.after_hand": ("{what} ({seat@seat}): {consequence} (depois da mão)",
                          "{what} ({seat@seat}): {consequence} (after the hand)"),
    "ruling.after_game": ("{what} ({seat@seat}), depois da mão: a partida já terminou, {team} {team@verb:chegou:chegaram} "
                          "a 12; o tento não muda o placar (a partida vai a 12)",
                          "{what} ({seat@seat}), after the hand: the game is already over, {team} reached 12; the "
                          "tento does not change the score (a game is played to 12)"),
    "ruling.recorded": ("{what} ({seat@seat})", "{what} ({seat@seat})"),
    "ruling.false_call": ("\"{said}\" não é uma provocação clara: {consequence}", "\"{said}\" is not a clear call: {consequence}"),
    "ruling.raise_in_eleven": ("{call} em mão de onze ({seat@seat}): {consequence}",
                               "{call} in a mão de onze ({seat@seat}): {consequence}"),
    "consequence.tento": ("{offender} {offender@verb:perde:perdem} o tento em jogo ({points})",
                          "{offender} {offender@verb:loses:lose} the tento in play ({points})"),
    "consequence.house_tento": ("{offender} {offender@verb:perde:perdem} o tento em jogo ({points}) — sanção das regras "
                                "da casa (o regulamento não diz qual)",
                                "{offender} {offender@verb:loses:lose} the tento in play ({points}) — a house-rule sanction (the regulation "
                                "states none)"),
    "consequence.warning": ("advertência, sem perda de pontos — sanção das regras da casa, que o torneio escolheu "
                            "(o regulamento não diz qual)",
                            "a warning, no points lost — a house-rule sanction the tournament chose (the regulation "
                            "states none)"),
    "consequence.deal_lost": ("ninguém marca, o carteado passa adiante", "nobody scores, the deal passes on"),
    "consequence.eleven_three": ("com o adversário a {theirs}, {offender} {offender@verb:perde:perdem} três tentos",
                                 "with the opponents at {theirs}, {offender} {offender@verb:loses:lose} three points"),
    "consequence.eleven_game": ("com o adversário a {theirs}, {offender} {offender@verb:perde:perdem} a partida",
                                "with the opponents at {theirs}, {offender} {offender@verb:loses:lose} the game"),
    "consequence.eleven_match": ("com o adversário a {theirs}, {offender} {offender@verb:perde:perdem} o jogo (a partida "
                                 "toda)",
                                 "with the opponents at {theirs}, {offender} {offender@verb:loses:lose} the whole match"),
    "consequence.dealer_accepted": ("o pé aceitou o truco: paga três tentos", "the dealer accepted the truco: pays three"),
    "consequence.dealer_ran": ("o pé correu: perde um tento", "the dealer ran: loses one point"),
    "consequence.dealer_asked": ("o pé perguntou: perde o carteado, ninguém marca",
                                 "the dealer asked: loses the deal, nobody scores"),
    "consequence.none": ("", ""),
    # a ruling as the referee app records it (referee/services.py): the engine's ruling (a nested message)
    # and what the tournament's escalation policy or the organizer added
    "record.step": ("{ruling} — {nth}ª vez no torneio: {step}", "{ruling} — time {nth} in the tournament: {step}"),
    "step.warning": ("advertência", "warning"),
    "step.tento": ("tento", "tento"),
    "step.match_loss": ("perda da partida", "loss of the match"),
    "record.not_covered": ("Caso omisso ({seat@seat}): {description}", "Case not covered ({seat@seat}): {description}"),
    "record.decided": ("{ruling} — decisão do organizador (art. 26): {reason}",
                       "{ruling} — the organizer's decision (art. 26): {reason}"),
}

#: Infraction titles in English (the catalog's ``title`` is the Portuguese).
INFRACTION_TITLES_EN: dict[str, str] = {
    "bottom_of_deck": "Looked at the bottom of the deck",
    "wrong_card_count": "A card too many or too few (trucado, the dealer pays three if he accepts, loses one if "
                        "he runs, loses the deal if he asks)",
    "dealer_asked": "The dealer asked after a wrong deal",
    "burned_card": "Burned a card (not allowed, not even the four of ouros)",
    "covered_first_trick": "Covered card in the first trick (it must be shown)",
    "saw_partner_cards": "Saw the partner's cards when raised",
    "false_call": "A call with a false word (\"Jorge\", \"Truca\", \"Turco\"...)",
    "saw_partner_cards_eleven": "Saw the partner's cards in a mão de onze without being at 11, or in a mão de ferro",
    "raise_in_eleven": "Raised in a mão de onze",
    "two_cards_at_once": "Played two cards at once: the bottom one counts, the top one is the torna",
    "card_out_of_turn": "Played out of turn: the card stays and the player in turn may kill it",
    "guidance_word": "A word of guidance to the partner (\"deixa\", \"mata\", \"joga menor\"...)",
    "saw_cards_blind_iron": "Looked at one's own cards in a mão de ferro played blind",
    "stolen_card": "Stole a card",
    "looked_at_covered": "Looked at covered cards or at the pile",
    "stolen_points": "Stole points in the count",
}

#: the words for a parameter that carries one of the engine's enum values (a hand's ending, the state of the
#: game, a rule set's name): never the value itself in a sentence. parameter -> value -> (Portuguese, English)
PARAM_WORDS: dict[str, dict[str, tuple[str, str]]] = {
    "ended_by": {
        "tricks": ("vencida nas vazas", "won in the tricks"),
        "run": ("uma dupla correu de uma provocação", "a team ran from a raise"),
        "eleven_refused": ("a dupla com onze correu da mão de onze", "the team at eleven ran from the mão de onze"),
        "all_tied": ("três vazas empatadas", "three tied tricks"),
        "iron_tie": ("mão de ferro empatada", "a tied mão de ferro"),
        "proof": ("vitória provada pelo art. 21", "a win proved under art. 21"),
        "deal_lost": ("carteado perdido", "the deal lost"),
        "penalty": ("encerrada por uma penalidade", "ended by a penalty"),
        "fold": ("uma dupla desistiu da mão", "a team gave up the hand"),
        "incomplete": ("em andamento", "in progress"),
    },
    "state": {
        "normal": ("numa mão comum", "in an ordinary hand"),
        "eleven": ("na mão de onze", "in a mão de onze"),
        "iron": ("na mão de ferro", "in a mão de ferro"),
    },
    "preset": {
        "regulamento-tecnico": ("Regulamento Técnico", "Technical Regulation"),
        "regras-4-jogadores": ("regras da casa para 4 jogadores", "four-player house rules"),
        "jtb": ("Truco Brasileiro (JTB)", "Truco Brasileiro (JTB)"),
    },
}

#: parameters that list what a request may send (codes, fields, options): each item is shown quoted, as typed
QUOTED_LISTS = frozenset({"codes", "endings", "fields", "known", "allowed"})


def param_words(name: str, item: object, lang: str) -> object:
    """The words for an enum value of the parameter ``name`` (the value itself when it has none)."""
    words = PARAM_WORDS.get(name, {}).get(item) if type(item) is str else None
    return item if words is None else words[1 if lang == "en" else 0]


def quoted_list(item: object) -> object:
    """"a, b" → '"a", "b"'."""
    if type(item) is not str or not item:
        return item
    return ", ".join(f'"{part.strip()}"' for part in item.split(","))


#: every sentence the engine says: its verdicts' messages and its refusals (``error_messages.ERRORS``)
TEXTS: dict[str, tuple[str, str]] = {**MESSAGES, **{code: (pt, en) for code, (_, pt, en) in ERRORS.items()}}

LANGUAGES = ("pt", "en")
TeamWords = Callable[[int, str, str], str]  # (team, form "subject" | "of", language) -> words
TeamPlural = Callable[[int], bool]
SeatWords = Callable[[int, str, str], str]  # (seat, form "seat" | "seat_the" | "seat_of", language) -> words
SEAT_FORMS = ("seat", "seat_the", "seat_of")

_PLACEHOLDER = re.compile(r"\{(\w+)(?:@(\w+)(?::([^:}]*):([^}]*))?)?\}")


def default_team_words(team: int, form: str, lang: str) -> str:
    """"a dupla 0" / "da dupla 0" in Portuguese, "team 0" in English."""
    if lang == "en":
        return f"team {team}"
    return f"da dupla {team}" if form == "of" else f"a dupla {team}"


def default_seat_words(seat: int, form: str, lang: str) -> str:
    """"assento 1" / "o assento 1" / "do assento 1" in Portuguese, "seat 1" in English."""
    if lang == "en":
        return f"seat {seat}"
    return {"seat_the": "o ", "seat_of": "do "}.get(form, "") + f"assento {seat}"


def language(code: str | None) -> str:
    """``pt`` or ``en`` for a language code such as ``pt-br``, ``en-us`` (Portuguese by default)."""
    return "en" if isinstance(code, str) and code.lower().startswith("en") else "pt"


def render(key: str, params: dict, lang: str = "pt", team_words: TeamWords | None = None,
           plural: TeamPlural | None = None, seat_words: SeatWords | None = None) -> str:
    """The sentence ``key`` with ``params``, in ``lang``; nested messages (a parameter that is itself
    ``{"key", "params"}``) are rendered the same way. An unknown key renders as the key itself."""
    lang = language(lang)
    templates = TEXTS.get(key)
    if templates is None:
        return key
    words = team_words or default_team_words
    is_plural = plural or (lambda team: False)

    def value(name: str) -> object:
        item = params.get(name, "")
        if type(item) is dict and "key" in item:
            return render(item["key"], item.get("params") or {}, lang, team_words, plural, seat_words)
        if name == "what" and type(item) is str and lang == "en":
            return INFRACTION_TITLES_EN.get(params.get("infraction"), item)
        if name in QUOTED_LISTS:
            return quoted_list(item)
        return param_words(name, item, lang)

    def replace(match: re.Match) -> str:
        name, form, one, many = match.groups()
        item = value(name)
        if form in SEAT_FORMS:
            return (seat_words or default_seat_words)(item, form, lang) if type(item) is int else str(item)
        if name.endswith("team") or name in ("offender", "beneficiary", "winner"):
            if type(item) is not int:
                return str(item)
            if form == "verb":
                return many if is_plural(item) else one
            return words(item, "of" if form == "of" else "subject", lang)
        if form == "lower":
            text = str(item)
            return text[:1].lower() + text[1:]
        if form == "n":
            return f"{item} {one if item == 1 else many}"
        return str(item)

    return _PLACEHOLDER.sub(replace, templates[1 if lang == "en" else 0])


def render_item(item: dict, lang: str = "pt", team_words: TeamWords | None = None,
                plural: TeamPlural | None = None) -> str:
    """A verdict's violation or note rendered again (its ``message`` when it carries no ``key``)."""
    key = item.get("key")
    if not isinstance(key, str):
        return item.get("message", "")
    return render(key, item.get("params") or {}, lang, team_words, plural)


def render_error(error: dict, lang: str = "pt", team_words: TeamWords | None = None,
                 plural: TeamPlural | None = None) -> str:
    """A refusal (``{"field", "code", "article", "params", "message"}``, see ``error_messages``) rendered
    again; an error without a known code (a JSON error worded by ``check_hand``) keeps its ``message``."""
    code = error.get("code")
    if not isinstance(code, str) or code not in TEXTS:
        return error.get("message", "")
    return render(code, error.get("params") or {}, lang, team_words, plural)


def relocalize(verdict: dict, lang: str = "pt", team_words: TeamWords | None = None,
               plural: TeamPlural | None = None) -> dict:
    """``verdict`` with every violation's and note's ``message``, and its error's, rendered in ``lang``
    (a new dict)."""
    if language(lang) == "pt" and team_words is None:
        return verdict
    out = dict(verdict)
    for part in ("violations", "notes"):
        if part in verdict:
            out[part] = [dict(item, message=render_item(item, lang, team_words, plural)) for item in verdict[part]]
    error = verdict.get("error")
    if type(error) is dict:
        out["error"] = dict(error, message=render_error(error, lang, team_words, plural))
    return out
