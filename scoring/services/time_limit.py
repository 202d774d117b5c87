"""The end-of-time procedure at the entry (the room's time limit, docs/room.md): what ``record_hand`` does
once a match's time limit has run out.

The tournament's room (``room.services.time_limit``) writes on the match when its time limit ends
(``Match.time_up_at``, from the moment it started) and the procedure chosen (``Match.end_of_time``); all
off by default, since the regulation is silent (docs/room.md names each source). The entry then, on the
one write path (``hand_entry.record_hand`` and ``entry._finish_entry``), applies it:

- ``higher_score`` — the hand in play is finished (the first hand entered after the limit), then the match
  ends: the pair with more games wins; with games level, the pair ahead in the game in play, who is given
  that game.
- ``one_more_hand`` — the hand in play and one more hand, then as ``higher_score``.
- ``eleven_all`` (Tupantruco: after 1h30 the remaining games start at 11×11) — the game in play is
  finished; every game that starts after the limit starts at 11×11 (``Game.eleven_all``): a mão de ferro,
  played by art. 18 and art. 20 like any 11×11.

Tie rule (the project's, the regulation being silent): when the games and the game in play's score are
level at that moment, play goes on hand by hand, and the match ends after the first hand that puts a pair
ahead. With the games not level the game in play ends where it is, counted for no one.

Every application is audited (``MatchEvent`` ``time_up``: the procedure, the limit, what it did). Nothing
here reads the tournament: scoring knows only what is written on the match.
"""
from __future__ import annotations

from datetime import datetime

from referee.engine.game import game_start, time_up_result

from ..models import Game, HandEntry, Match, MatchEvent, PenaltyEntry
from . import base as services_base
from .versions import _issue_version

HANDS_AFTER_LIMIT = {Match.EndOfTime.HIGHER_SCORE: 1, Match.EndOfTime.ONE_MORE_HAND: 2}


def time_is_up(match: Match, now: datetime) -> bool:
    """The match's time limit has run out and its room chose a procedure."""
    return bool(match.end_of_time) and match.time_up_at is not None and now >= match.time_up_at


def starts_at_eleven(match: Match, now: datetime) -> bool:
    """A game starting now starts at 11×11 (``eleven_all`` after the limit)."""
    return match.end_of_time == Match.EndOfTime.ELEVEN_ALL and time_is_up(match, now)


def leader(match: Match, game: Game | None) -> int | None:
    """Who wins if the match ends now: more games; games level, the pair ahead in ``game`` (the game in
    play); None when that is level too (the tie rule: one more hand). The engine's ``time_up_result``."""
    return time_up_result((match.games_a, match.games_b), None if game is None else game.score)[0]


def ends_now(match: Match, now: datetime) -> bool:
    """``higher_score`` / ``one_more_hand``: enough hands ended since the limit (the entry just written
    counts) for the match to end when a pair is ahead (only past the limit). A hand ends when it is played
    out, or when a ruling's tento ends it (art. 24 "perda do tento em jogo", art. 5's lost deal: the
    penalty keeps that hand's dealer): 5-3 and the hand in play lost to a tento, 6-3, ends the match."""
    needed = HANDS_AFTER_LIMIT.get(match.end_of_time)
    if needed is None or not time_is_up(match, now):
        return False
    return hands_ended_since_limit(match) >= needed


def hands_to_decide(match: Match, now: datetime) -> int | None:
    """``higher_score`` / ``one_more_hand`` with a limit on the match: how many more hands must end before the
    procedure decides (the page's preview, ``referee.engine.preview.time_up_table``): all of them before the
    limit, fewer as hands end after it (0: it decides after every hand, the tie rule); None without such a
    procedure. Past the limit it counts them (one query)."""
    needed = HANDS_AFTER_LIMIT.get(match.end_of_time)
    if needed is None or match.time_up_at is None:
        return None
    return max(0, needed - hands_ended_since_limit(match)) if time_is_up(match, now) else needed


def hands_ended_since_limit(match: Match) -> int:
    """How many hands ended since the time limit: hands entered, and penalties that ended the hand in play."""
    since = match.time_up_at
    return (HandEntry.objects.filter(game__match=match, created_at__gte=since).count()
            + PenaltyEntry.objects.filter(game__match=match, created_at__gte=since, dealer__isnull=False).count())


def ended_by_rows(match: Match, rows) -> bool:
    """A replay's check (a correction): the entries of the súmula (``rows``: dicts with ``kind``,
    ``created_at`` and, for a penalty, ``dealer``) end enough hands after the limit for the procedure to
    end the match (``higher_score`` / ``one_more_hand``)."""
    needed = HANDS_AFTER_LIMIT.get(match.end_of_time)
    if needed is None or match.time_up_at is None:
        return False
    ended = sum(1 for row in rows if row["created_at"] >= match.time_up_at
                and (row["kind"] == "hand" or row.get("dealer") is not None))
    return ended >= needed


def after_entry(match: Match, game: Game, ended_game: bool, by, now: datetime) -> None:
    """After an entry that ended a hand (a hand, or a ruling's tento ending the hand in play), past the limit:
    end the match by the procedure when its hands are played (``ended_game``: the entry ended ``game`` and
    the next game has just started)."""
    if match.winner is not None or match.end_of_time not in HANDS_AFTER_LIMIT or not ends_now(match, now):
        return
    in_play = Game.objects.get(match=match, number=game.number + 1) if ended_game else game
    end_match(match, in_play, by, now, fresh=ended_game)


def end_match(match: Match, game: Game | None, by, now: datetime, *, fresh: bool = False) -> int | None:
    """End the match by the procedure if a pair is ahead (:func:`leader`) and issue its version; the game
    in play is closed at its score (given to the winner when the games were level); ``fresh``: ``game``
    had just started with nothing in it, and is removed. Returns the winner, or None (level: the tie
    rule, play goes on)."""
    winner = leader(match, None if fresh else game)
    if winner is None:
        return None
    games = [match.games_a, match.games_b]
    given = None
    if game is not None and fresh:
        game.delete()
        game = None
    elif game is not None and game.winner is None:
        if games[0] == games[1]:
            given = winner
            games[winner] += 1
        game.winner, game.finished_at = given, now
        game.save(update_fields=["winner", "finished_at"])
    match.games_a, match.games_b = games
    match.winner, match.finished_at = winner, now
    match.save(update_fields=["games_a", "games_b", "winner", "finished_at", "updated_at"])
    services_base._event(match, MatchEvent.Kind.TIME_UP, by, procedure=match.end_of_time,
                         time_up_at=match.time_up_at.isoformat(), winner=winner,
                         game=game.number if game is not None else None, game_given_to=given, games=games)
    _issue_version(match, by)
    return winner


def eleven_all_event(match: Match, game_number: int, by) -> None:
    """Audit a game started at 11×11 by the procedure."""
    services_base._event(match, MatchEvent.Kind.TIME_UP, by, procedure=match.end_of_time,
                         time_up_at=match.time_up_at.isoformat(), game=game_number, start=list(game_start(True)))
