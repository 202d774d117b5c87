"""Who may do what to a match's súmula (art. 25). Pure checks; services, pages and the API all use them.

- enter hands, penalties, undo, correct, issue one-time codes: the match's referee or the organizer;
- sign for a pair: a player of that pair (checked with their PIN or a one-time code, not here);
- countersign: the match's referee;
- mark received: the organizer;
- read a document: anyone for tournament matches; for friendlies, who may enter;
- the table (its link, ``tables.links``): enter hands of its own match and undo the hands a
  table link entered, until the súmula is received; never penalties, corrections, undoing what a
  referee or the organizer recorded, countersigning, receiving nor codes.

Who organizes a tournament is the event's rule (``events.access``: ``manages``, ``organizes``); it is
imported here, where every check of a match starts from it.
"""
from __future__ import annotations

from events.access import active_user
from events.access import manages, operates_site, operates_site_condition, organizes  # noqa: F401 (organizes: the same rule as a filter, for scoring's callers)
from tables import links


# who organizes a match's tournament: one rule with the table channel's (``tables.links.is_organizer``)
is_organizer = links.is_organizer


def is_referee(user, match) -> bool:
    return active_user(user) and match.referee_id is not None and match.referee_id == user.id


def can_enter(user, match) -> bool:
    return is_referee(user, match) or is_organizer(user, match)


def is_table(credential, match) -> bool:
    """``credential`` is the table link of ``match`` (``tables.links.TableCredential``), still active
    and the súmula not received (art. 25)."""
    link = getattr(credential, "table_link", None)
    return (link is not None and link.match_id == match.pk and link.revoked_at is None
            and match.status != "received")


def can_enter_entries(by, match) -> bool:
    """Enter and undo hands: who may enter, or the match's table through its link."""
    return can_enter(by, match) or is_table(by, match)


def can_undo_entry(by, match, entry) -> bool:
    """Undo ``entry`` (a hand or a penalty of ``match``): who may enter; a table only a hand entered
    through a table link (``HandEntry.table_link``): what the referee or the organizer recorded is theirs."""
    if can_enter(by, match):
        return True
    return is_table(by, match) and getattr(entry, "table_link_id", None) is not None


def can_correct(user, match) -> bool:
    """Referee or organizer; once the organizer received the súmula, only the organizer."""
    if match.status == "received":
        return is_organizer(user, match)
    return can_enter(user, match)


def can_read(user, match) -> bool:
    return match.tournament_id is not None or can_enter(user, match)


can_create = manages  # who may create a match in this tournament (None: a friendly)


def pair_players(pair) -> list:
    """Who may sign for a pair: its two partners and its registered substitute."""
    players = [pair.first_player, pair.second_player]
    if pair.substitute_id:
        players.append(pair.substitute)
    return players
