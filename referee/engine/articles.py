"""Every article of the regulamento técnico and where this project applies it.

``ARTICLES`` maps "art. N" to how it is applied: ``engine`` (checked when a hand is
replayed or entered; its tests cite the article), ``infraction`` (a tento or ruling of the
catalog, applied by the engine when reported), ``scoring`` (the súmula), ``organizer``
(art. 26) or ``table`` (a practice at the table that no report records, so nothing checks it).
"""
from __future__ import annotations

ARTICLES: dict[str, tuple[str, str]] = {
    "art. 1": ("engine", "first dealer by drawing cards: game.first_dealer"),
    "art. 2": ("table", "the dealer gathers only the cards of the hand"),
    "art. 3": ("table", "the dealer may look only at the partner's first card"),
    "art. 4": ("engine", "the player right of the dealer leads the first trick; play is counter-clockwise"),
    "art. 5": ("infraction", "bottom_of_deck: the deal is lost, nobody scores (before the first card; option bottom_of_deck)"),
    "art. 6": ("engine", "wrong number of cards: trucado pays 3, runs loses 1, asks loses the deal "
                         "(also in a mão de onze; option wrong_cards_in_eleven)"),
    "art. 7": ("table", "how the cutter may cut"),
    "art. 8": ("table", "the cutter may pass a card to the partner"),
    "art. 9": ("table", "the cutter returns the whole deck"),
    "art. 10": ("infraction", "burned_card: the tento in play"),
    "art. 11": ("engine", "a hand starts at 1 and is raised to 3, 6, 9, 12; most tricks wins"),
    "art. 11.1": ("engine", "no covered card in the first trick"),
    "art. 11.2": ("engine", "the first trick's winner wins by making or tying another"),
    "art. 11.3": ("engine", "a tied first trick is decided by the second, then the third"),
    "art. 11.4": ("engine", "three tied tricks: nobody scores (variant all_tied)"),
    "art. 11.5": ("engine", "after a tied first trick, no obligation to show the highest card (variant)"),
    "art. 11.6": ("engine", "a raiser who made the first trick wins with a tie in the third"),
    "art. 11.7": ("table", "only the next dealer gathers the cards on the table"),
    "art. 12": ("engine", "raises in order, by the player in turn, teams alternating (variant raises)"),
    "art. 13": ("engine", "accepted raises are worth 3/6/9/12; who runs loses the value in play"),
    "art. 14": ("infraction", "saw_partner_cards when raised: the tento in play"),
    "art. 15": ("engine", "a call must be clear: false_call"),
    "art. 16": ("engine", "'Jorge', 'Truca', 'Turco' count as truco when accepted (variant false_call)"),
    "art. 17": ("engine", "the first decision of either partner stands"),
    "art. 18": ("engine", "mão de onze: the team at 11 decides; mão de ferro: nobody sees the partner's cards"),
    "art. 19": ("engine", "a raise in the mão de onze loses 3, or the game if the opponents have 9-11"),
    "art. 20": ("engine", "a tied mão de ferro scores nothing; the deal passes on"),
    "art. 21": ("engine", "a team at 11 with a sure win may prove it: eleven.sure_win"),
    "art. 22": ("engine", "two cards at once: the bottom one plays, the top one is the torna"),
    "art. 23": ("engine", "a card out of turn stays and may be killed by the player in turn"),
    "art. 24": ("infraction", "guidance_word: the tento in play"),
    "art. 25": ("scoring", "the súmula, filled in and signed by both pairs"),
    "art. 26": ("organizer", "cases not covered go to the organizer"),
}
