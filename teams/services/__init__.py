"""The team services, by concern: the event's rules and the rosters (``rosters``), team matches and the
negra (``matches``), the team result after every decision on results (``results``), the round robin and
the standings (``schedule``)."""
from .lineups import line_ups_for, set_captain, submit_line_up
from .matches import create_decider, create_team_match
from .results import describe, follow_results, recompute, state_of
from .rosters import add_player, configure, create_team, form_pairs, settings_of
from .schedule import create_round_robin, seeded_teams, standings

__all__ = ["add_player", "configure", "create_decider", "create_round_robin", "create_team", "create_team_match",
           "describe", "line_ups_for", "set_captain", "submit_line_up", "follow_results", "form_pairs", "recompute", "seeded_teams", "settings_of", "standings", "state_of"]
