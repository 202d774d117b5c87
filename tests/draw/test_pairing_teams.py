"""The team result rules (art. 26: the event's own rule for teams) and the team standings, checked against
an independent computation written here."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from draw.pairing.teams import (Reason, TableResult, TeamMatchResult, TeamRule, TeamTiebreak, team_match_state,
                                team_standings)


def done(table, winner, ga, gb, decider=False):
    return TableResult(table, True, winner, (ga, gb), decider)


def playing(table, ga=0, gb=0):
    return TableResult(table, False, None, (ga, gb))


def test_pair_wins_three_two_and_five_nil():
    state = team_match_state("pair_wins", [done(1, 0, 2, 0), done(2, 1, 0, 2), done(3, 0, 2, 1),
                                           done(4, 1, 1, 2), done(5, 0, 2, 0)])
    assert (state.decided, state.winner, state.pair_wins, state.games) == (True, 0, (3, 2), (7, 5))
    assert state.reason is Reason.MORE_PAIR_WINS


def test_pair_wins_two_all_needs_the_negra_which_decides_alone():
    tables = [done(1, 0, 2, 0), done(2, 1, 0, 2), done(3, 0, 2, 1), done(4, 1, 0, 2)]
    state = team_match_state(TeamRule.PAIR_WINS, tables)
    assert (state.decided, state.needs_decider, state.reason) == (False, True, Reason.TIE_NEEDS_DECIDER)
    negra = done(5, 1, 0, 1, decider=True)
    state = team_match_state(TeamRule.PAIR_WINS, tables + [negra])
    # the negra decides the winner; the pair wins and games stay those of the four tables
    assert (state.decided, state.winner, state.pair_wins, state.games) == (True, 1, (2, 2), (4, 5))
    assert state.reason is Reason.DECIDER_WON


def test_pair_wins_waits_for_every_table():
    state = team_match_state("pair_wins", [done(1, 0, 2, 0), done(2, 0, 2, 0), playing(3, 1, 0)])
    assert (state.decided, state.reason, state.close_tables) == (False, Reason.PLAYING, ())


def test_first_to_six_ends_at_once_and_closes_the_open_tables():
    tables = [done(1, 0, 2, 0), done(2, 0, 2, 1), playing(3, 1, 1), done(4, 1, 0, 2), playing(5, 1, 0),
              playing(6), playing(7)]
    state = team_match_state("first_to_k_games", tables, k=6)
    assert (state.decided, state.winner, state.games, state.close_tables) == (True, 0, (6, 4), (3, 5, 6, 7))
    assert state.reason is Reason.REACHED_K


def test_first_to_k_needs_k():
    with pytest.raises(ValueError, match="needs k"):
        team_match_state("first_to_k_games", [done(1, 0, 1, 0)])


def test_total_games():
    state = team_match_state("total_games", [done(1, 0, 2, 1), done(2, 1, 0, 2), done(3, 1, 1, 2)])
    assert (state.winner, state.games, state.pair_wins) == (1, (3, 5), (1, 2))


# --------------------------------------------------------------------- the independent computation

def expected(rule, tables, k):
    """Written apart from the module: (decided, winner, needs_decider, close_tables)."""
    reg = [t for t in tables if not t.decider]
    neg = [t for t in tables if t.decider]
    ga = sum(t.games[0] for t in reg)
    gb = sum(t.games[1] for t in reg)
    wa = len([t for t in reg if t.finished and t.winner == 0])
    wb = len([t for t in reg if t.finished and t.winner == 1])
    everything_in = not [t for t in reg if not t.finished]
    still_open = tuple(sorted(t.table for t in reg if not t.finished))
    close = ()
    if rule == "first_to_k_games":
        if ga >= k or gb >= k:
            close = still_open
            if ga != gb:
                return True, (0 if ga > gb else 1), False, close
            tie = True
        elif not everything_in:
            return False, None, False, ()
        else:
            tie = ga == gb
            if not tie:
                return True, (0 if ga > gb else 1), False, ()
    else:
        if not everything_in:
            return False, None, False, ()
        a, b = (wa, wb) if rule == "pair_wins" else (ga, gb)
        if a != b:
            return True, (0 if a > b else 1), False, ()
        tie = True
    assert tie
    if not neg:
        return False, None, True, close
    if neg[0].finished and neg[0].winner is not None:
        return True, neg[0].winner, False, close
    return False, None, False, close


@st.composite
def tables_of_a_team_match(draw):
    count = draw(st.integers(1, 7))
    tables = []
    for number in range(1, count + 1):
        finished = draw(st.booleans())
        if finished:
            winner = draw(st.sampled_from([0, 1, 1, 0, None]))
            if winner is None:
                games = (0, 0)  # a double W.O.
            else:
                lose = draw(st.integers(0, 1))
                games = (2, lose) if winner == 0 else (lose, 2)
        else:
            winner, games = None, (draw(st.integers(0, 1)), draw(st.integers(0, 1)))
        tables.append(TableResult(number, finished, winner, games))
    if draw(st.booleans()):
        finished = draw(st.booleans())
        winner = draw(st.sampled_from([0, 1, None])) if finished else None
        games = (0, 0) if winner is None else ((1, 0) if winner == 0 else (0, 1))
        tables.append(TableResult(count + 1, finished, winner, games, decider=True))
    return tables


@settings(max_examples=400, deadline=None)
@given(rule=st.sampled_from(["pair_wins", "first_to_k_games", "total_games"]), tables=tables_of_a_team_match(),
       k=st.integers(1, 8))
def test_the_rules_agree_with_an_independent_computation(rule, tables, k):
    state = team_match_state(rule, tables, k=k)
    assert (state.decided, state.winner, state.needs_decider, state.close_tables) == expected(rule, tables, k)
    regular = [t for t in tables if not t.decider]
    assert state.pair_wins == (sum(t.winner == 0 for t in regular), sum(t.winner == 1 for t in regular))
    assert state.decided == (state.winner is not None)


# ------------------------------------------------------------------------------------- standings

def test_standings_by_match_points_then_pair_wins_then_games_then_head_to_head():
    results = [TeamMatchResult("A", "B", "A", (2, 1), (4, 3)), TeamMatchResult("C", "D", "C", (3, 0), (6, 1)),
               TeamMatchResult("A", "C", "C", (1, 2), (3, 4)), TeamMatchResult("B", "D", "B", (2, 0), (4, 2)),
               TeamMatchResult("A", "D", "A", (2, 1), (4, 3)), TeamMatchResult("B", "C", "B", (2, 2), (4, 4))]
    rows = team_standings(["A", "B", "C", "D"], results)
    # A, B, C on 4 points; pair-win differences C +4, A +1, B +1 → C first; A and B: games +1 and +1,
    # head-to-head A beat B
    assert [r.team for r in rows] == ["C", "A", "B", "D"]
    assert [(r.match_points, r.pair_win_difference, r.game_difference) for r in rows] == [
        (4, 4, 6), (4, 1, 1), (4, 1, 1), (0, -6, -8)]
    assert rows[1].values == {"match_points": 4, "pair_win_difference": 1, "game_difference": 1, "head_to_head": 2}


@st.composite
def round_robins(draw):
    teams = list(range(draw(st.integers(2, 6))))
    results = []
    for home, away in itertools.combinations(teams, 2):
        wa, wb = draw(st.sampled_from([(3, 0), (2, 1), (1, 2), (0, 3), (2, 2)]))
        ga, gb = draw(st.integers(0, 6)), draw(st.integers(0, 6))
        winner = home if wa > wb else away if wb > wa else draw(st.sampled_from([home, away]))
        results.append(TeamMatchResult(home, away, winner, (wa, wb), (ga, gb)))
    return teams, results


@settings(max_examples=200, deadline=None)
@given(round_robins())
def test_the_standings_agree_with_an_independent_ordering(data):
    teams, results = data
    rows = team_standings(teams, results, [TeamTiebreak.MATCH_POINTS, TeamTiebreak.PAIR_WIN_DIFFERENCE,
                                           TeamTiebreak.GAME_DIFFERENCE])
    totals = {t: [0, 0, 0] for t in teams}
    for r in results:
        totals[r.winner][0] += 2
        for side, team in ((0, r.home), (1, r.away)):
            totals[team][1] += r.pair_wins[side] - r.pair_wins[1 - side]
            totals[team][2] += r.games[side] - r.games[1 - side]
    # ties broken by the order given: a stable sort on the negated keys
    assert [r.team for r in rows] == sorted(teams, key=lambda t: tuple(-v for v in totals[t]))
    assert [r.rank for r in rows] == list(range(1, len(teams) + 1))


@settings(max_examples=200, deadline=None)
@given(round_robins())
def test_head_to_head_separates_only_among_the_tied(data):
    teams, results = data
    rows = team_standings(teams, results, [TeamTiebreak.MATCH_POINTS, TeamTiebreak.HEAD_TO_HEAD])
    for upper, lower in zip(rows, rows[1:]):
        assert upper.match_points >= lower.match_points
        if upper.match_points == lower.match_points:
            # two tied teams: whoever beat the other is above (a mini-table of two)
            tied = [r.team for r in rows if r.match_points == upper.match_points]
            if len(tied) == 2:
                between = next(r for r in results if {r.home, r.away} == set(tied))
                assert between.winner == upper.team
