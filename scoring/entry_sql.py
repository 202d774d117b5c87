"""The statements of a hand's entry, in plain SQL written once (issue 19 §1; scoring/plain_sql.py runs them).

Every entry of a table runs the same few statements: the table's link with its match (locked, in
the entry's transaction), the current game, then one write: the hand, its audit event, the
game's new score and the ``Idempotency-Key`` claimed with its answer (one ``WITH`` on PostgreSQL). The same statements run on every database;
``FOR UPDATE`` is left out where the database has no row locks (SQLite serializes writers:
``BEGIN IMMEDIATE``, config/settings.py).
"""
from __future__ import annotations

from django.db import connection

from .idempotency import claim_sql
from .models import Game, HandEntry, Match, MatchEvent, PenaltyEntry, TableLink
from .plain_sql import column, for_update, read, statement, table, write


def lock_match(pk: int) -> Match | None:
    """The match row alone, locked until the transaction ends (every writer of a match locks it
    before it reads the game: two entries of one table run one after the other); ``match.locked``."""
    match = read("lock_match", Match, lambda: f"SELECT * FROM {table(Match)} WHERE {column(Match, 'id')} = %s"
                                              + for_update(), [pk])
    if match is not None:
        match.locked = True
    return match


def link_with_match(token: str) -> TableLink | None:
    """The active (not revoked) link of ``token`` with its match (``link.match``), one statement.

    Inside a transaction (a table's write) the match is locked by the same statement, and
    ``match.locked`` says so: the entry that follows does not lock and read it again. (The link's
    row is read as it was when the statement began; only the match is read again once locked.)"""
    locked = connection.in_atomic_block

    def build() -> str:
        m, link = table(Match), table(TableLink)
        return (f"SELECT {m}.*, {link}.{column(TableLink, 'id')} AS link_id FROM {link} "
                f"JOIN {m} ON {m}.{column(Match, 'id')} = {link}.{column(TableLink, 'match')} "
                f"WHERE {link}.{column(TableLink, 'token')} = %s "
                f"AND {link}.{column(TableLink, 'revoked_at')} IS NULL" + (for_update(m) if locked else ""))

    match = read(f"link_with_match:{locked}", Match, build, [token])
    if match is None:
        return None
    match.locked = locked
    link = TableLink.from_db(connection.alias, ["id", "match_id", "token", "revoked_at"],
                             [match.link_id, match.pk, token, None])
    link.match = match
    return link


def current_game(match_id: int) -> Game | None:
    """The match's last game with its last hand's number, dealer and position and its last
    penalty's position (``last_hand_number``, ``last_hand_dealer``, ``last_hand_position``,
    ``last_penalty_position``; None when there is none), in one statement."""
    def build() -> str:
        g = table(Game)

        def last(model, field: str) -> str:
            x = table(model)
            return (f"(SELECT {x}.{column(model, field)} FROM {x} WHERE {x}.{column(model, 'game')} = "
                    f"{g}.{column(Game, 'id')} ORDER BY {x}.{column(model, 'position')} DESC LIMIT 1)")

        return (f"SELECT {g}.*, {last(HandEntry, 'number')} AS last_hand_number, "
                f"{last(HandEntry, 'dealer')} AS last_hand_dealer, "
                f"{last(HandEntry, 'position')} AS last_hand_position, "
                f"{last(PenaltyEntry, 'position')} AS last_penalty_position "
                f"FROM {g} WHERE {g}.{column(Game, 'match')} = %s ORDER BY {g}.{column(Game, 'number')} DESC "
                f"LIMIT 1")

    return read("current_game", Game, build, [match_id])


def _score(game: Game) -> tuple[str, list]:
    """The UPDATE of the game's score (from its ``score_a``/``score_b``)."""
    statement("set_score", lambda: f"UPDATE {table(Game)} SET {column(Game, 'score_a')} = %s, "
                                   f"{column(Game, 'score_b')} = %s WHERE {column(Game, 'id')} = %s")
    return "set_score", [game.score_a, game.score_b, game.pk]


def write_hand(hand: HandEntry, event: MatchEvent, score_of: Game | None,
               claim: list | None = None) -> tuple[HandEntry, bool]:
    """The one write of a hand: the hand, its audit event, the game's score when the game goes on
    (``score_of``) and the ``Idempotency-Key`` claimed with its answer (``claim``: the parameters of
    ``scoring.idempotency.claim_sql``), as one statement on PostgreSQL. The stored hand, and whether
    the claim took (True without one)."""
    then = [_score(score_of)] if score_of is not None else []
    if claim is not None:
        statement("claim", claim_sql)
        then.append(("claim", claim))
    (stored, _event), results = write(hand, event, then=tuple(then))
    return stored, claim is None or results[-1] is not None


def insert_hands(hands: list[HandEntry]) -> list[HandEntry]:
    """The hands of a súmula rewritten by a correction (art. 25), with the same INSERT as an entry's."""
    return write(*hands)[0] if hands else []


def insert_event(event: MatchEvent) -> MatchEvent:
    """An audit event of another kind of entry (a penalty, an undo, a version...)."""
    return write(event)[0][0]


def set_score(game: Game) -> None:
    """The game's score after an entry that did not end it (a penalty)."""
    write(then=(_score(game),))
