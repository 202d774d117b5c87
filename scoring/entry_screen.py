"""The one-screen hand entry that updates in place, shared by the table page
(``/mesa/<token>/``, referee/table_views.py) and the súmula entry page of the referee and the organizer
(``/sumulas/partida/<id>/``, scoring/views.py).

Both pages render ``scoring/_entry_screen.html`` and run ``scoring/_entry_core.js`` (included into each
page's script): the script posts hands to the REST API with an ``Idempotency-Key`` and the expected
position, keeps them in a queue until answered, and redraws the score, the buttons and the last entries
from :func:`screen_state`. This module owns what that screen needs from the server: its state as JSON,
its fixed data (pairs, seats by the players' names, the rule set's options, labels) and its words.
The table page adds its own (calls, disputes, rulings, signatures); the pages' permissions stay theirs.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _

from referee.engine.game import dealer_in_turn

from .content import load_games, person_name
from .display import ENDING_LABELS, VALUE_LABELS, seat_names
from .words import engine_messages
from .models import Match
from .services import preview
from .services.entry import ended_dealers
from .services.hand_entry import state_of


def seats(match: Match) -> list[dict]:
    """Seats by the players' names, as on the printed súmula: team = seat % 2, partners opposite."""
    return [{"seat": seat, "team": seat % 2, "name": name} for seat, name in enumerate(seat_names(match))]


def entry_row(entry, by_names: dict, disputes, game_number: int, teams=None) -> dict:
    """One entry of the "last entries" list; ``disputes`` holds the (game, hand) disputed at the table; a
    penalty's reason in the page's language with the pairs named after ``teams`` (the match)."""
    if entry.kind == "hand":
        # "pela mesa (link)", not "por a mesa": the whole phrase is one message
        by = "" if entry.table_link_id else by_names.get(entry.created_by_id) or ""
        return {"kind": "hand", "game": game_number, "position": entry.position, "number": entry.number,
                "winner": entry.winner,
                "value": entry.value, "points": entry.points, "ended_by": entry.ended_by,
                "score": [entry.score_a, entry.score_b], "by": by, "by_table": bool(entry.table_link_id),
                "disputed": (game_number, entry.number) in disputes}
    return {"kind": "penalty", "game": game_number, "position": entry.position, "points": entry.points, "article": entry.article,
            "beneficiary": entry.beneficiary, "score": [entry.score_a, entry.score_b],
            "reason": engine_messages.render_stored(entry.reason_data, entry.reason, teams),
            "by": by_names.get(entry.created_by_id) or ""}


def screen_state(match: Match, games: list | None = None, disputes=(), known_preview: str | None = None) -> dict:
    """What the screen shows now, as JSON: the hand to enter (``state``, as the hands API answers it),
    the games, and every entry of the match (the table page lists them all, by game). ``games`` as ``content.load_games`` gives them (loaded if None).

    The engine's ``preview`` is sent with its ``preview_key``; a page that already holds it says so
    (``known_preview``, the key it holds: the state's ``?preview=``) and is sent the key alone while the
    preview has not changed (the rule set, the room's time limit or the hands left before its procedure
    decides change it): about 24 kB of JSON less per poll."""
    games = load_games(match) if games is None else games
    game = games[-1] if games else None
    users = {e.created_by_id for g in games for e in g.entries if e.created_by_id}
    by_names = ({u.pk: person_name(u) for u in get_user_model().objects.filter(pk__in=users)} if users else {})
    if match.winner is None and game is not None and game.winner is None:
        hands = [e for e in game.entries if e.kind == "hand"]
        dealer = dealer_in_turn(game.first_dealer, ended_dealers(game.entries))  # art. 1, 4
        state = state_of(match, game.number, (game.score_a, game.score_b), dealer, len(hands) + 1,
                         len(game.entries))
    else:
        state = state_of(match, None, (0, 0), 0, 1, 0)
    table = preview(match)
    return {
        "status": match.status, "winner": match.winner, "games_won": [match.games_a, match.games_b],
        "state": state,
        # the engine's preview of hands queued offline: the page computes no rule (docs/table-links.md);
        # not sent again to a page that holds it (its key)
        "preview_key": table["key"], **({} if known_preview == table["key"] else {"preview": table}),
        "games": [{"number": g.number, "score": [g.score_a, g.score_b], "winner": g.winner} for g in games],
        "entries": [entry_row(e, by_names, disputes, g.number, match) for g in games for e in g.entries],
    }


def screen_texts() -> dict:
    """The screen script's words, translated (placeholders ``%(name)s``)."""
    return {
        "where": _("Game %(game)s · hand %(hand)s · deals: %(dealer)s"),
        "over": _("Match over"),
        # the room's end-of-time procedure ends the match in the preview of the hands queued (art. 26, docs/room.md)
        "over_time": _("Match over: time is up"),
        # a state without the engine's preview (a page or a server from before it)
        "no_preview": _("no preview: the súmula confirms on reconnecting"),
        "queued_unpreviewed": _("Hand saved on this phone; no preview: the súmula confirms it on reconnecting"),
        "online": _("online"),
        "offline": _("OFFLINE"),
        "waiting": _("%(n)s waiting to be sent"),
        "offline_waiting": _("OFFLINE · %(n)s waiting"),
        "game_over": _("Game %(game)s: %(pair)s %(a)s × %(b)s"),
        "recorded": _("Hand %(hand)s recorded"),
        "queued": _("Hand %(hand)s saved on this phone: it is sent when the network is back"),
        "nobody": _("Nobody scores"),
        "pending": _("pending"),
        "disputed": _("disputed: the referee was called"),
        "by": _("by %(who)s"),
        "by_table": _("by the table (link)"),
        "this_phone": _("this phone"),
        "refused": _("Not recorded: %(message)s"),
        "games_won": _("games won: %(n)s"),
        "game_hand": _("G%(game)s · hand %(hand)s"),
        "game_penalty": _("G%(game)s · penalty %(article)s"),
        "game_summary": _("Game %(game)s · %(a)s × %(b)s · %(n)s entries"),
        "sending": _("Hand %(hand)s: sending…"),
        "unconfirmed": _("saved on this phone, not yet confirmed"),
        "unconfirmed_msg": _("Hand %(hand)s saved on this phone, not yet confirmed: sending it again."),
        "unconfirmed_badge": _("not confirmed: %(n)s"),
        "conflict_badge": _("CONFLICT · choose"),
        "conflict_row": _("conflict: choose above"),
        "held": _("waiting for the choice"),
        "conflict": _("This phone's %(mine)s does not fit: the súmula already has %(theirs)s."),
        "conflict_unknown": _("another entry there"),
        "conflict_after_one": _("%(n)s more entry of this phone waits behind it."),
        "conflict_after": _("%(n)s more entries of this phone wait behind it."),
        "conflict_msg": _("The other phone entered something else at the same point: choose what stays."),
        "keep_server": _("Keep the súmula's (drop mine)"),
        "send_after": _("Send mine after it"),
        "discard_one": _("Discard mine"),
        "discard_mine": _("Discard mine (%(n)s)"),
        "kept_server": _("The súmula's entry stays; this phone's was dropped."),
        "sending_after": _("This phone's entries go after the súmula's."),
        "discarded": _("This phone's entries were discarded."),
        "already": _("Hand %(hand)s of game %(game)s was already recorded, the same, by the other phone: counted once."),
        "same_again": _("Enter another identical hand? (%(what)s)"),
        "same_yes": _("Enter it"),
        "same_no": _("No"),
        "undo_stale": _("Nothing undone: another phone entered since. Check the score."),
        "undo_unconfirmed": _("The undo is not confirmed yet: trying again."),
        "wait_sending": _("This entry is being sent: wait a moment and undo again."),
        "undone": _("Last entry undone."),
        "eleven": _("%(value)s · mão de onze"),
        "iron": _("%(value)s · mão de ferro"),
        "eleven_refused": _("%(value)s · refused the onze"),
        "run": _("%(value)s · ran"),
        "hand": _("Hand %(hand)s"),
        "penalty": _("Penalty %(article)s"),
        # connectivity as requests prove it, outcomes said, conflicts shown side by side (scoring/_entry_core.js)
        "offline_since": _("OFFLINE since %(time)s · retrying"),
        "offline_since_waiting": _("OFFLINE since %(time)s · retrying · %(n)s waiting"),
        "action_queued": _("%(what)s: saved on this phone, sent once as soon as the network is back."),
        "undo_offline": _("Nothing undone: no network. The last entry of the súmula can be undone when the network "
                          "is back."),
        "nothing_undone": _("Nothing to undo."),
        "undone_here": _("Entry removed from this phone (it had not been sent)."),
        "other_same": _("The other phone has just entered this hand (%(what)s). Enter another identical one?"),
        "moved_check": _("The score changed (the other phone entered a hand): check it and tap again."),
        "moved_on": _("The other phone entered hand %(prev)s: this one goes as hand %(hand)s."),
        "conflict_theirs_title": _("On the súmula (the other phone)"),
        "conflict_mine_title": _("On this phone"),
        "choice_after": _("Both count: this phone's goes next → %(score)s"),
        "choice_keep": _("Only the súmula's counts: drop this phone's → %(score)s"),
        "choice_keep_rest": _("Only the súmula's counts: drop this phone's, send the %(n)s after it → %(score)s"),
        "choice_discard": _("Drop this phone's and the %(n)s after it → %(score)s"),
    }


def screen_boot(match: Match) -> dict:
    """The screen's fixed data: pairs, seats by name, labels and words (no rule: the rules the page previews
    come with its state, ``preview``, from the engine)."""
    return {
        "match": match.pk, "table": match.table, "best_of": match.best_of,
        "pairs": [match.pair_a.name, match.pair_b.name], "seats": seats(match),
        "value_labels": {str(k): str(v) for k, v in VALUE_LABELS.items()},
        "endings": {k: str(v) for k, v in ENDING_LABELS.items()}, "t": screen_texts(),
        "urls": {"hands": reverse("scoring-api:hand", kwargs={"pk": match.pk}),
                 "undo": reverse("scoring-api:undo", kwargs={"pk": match.pk})},
    }
