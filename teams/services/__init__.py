"""The team services, by concern: the event's rules and the rosters (``rosters``), team matches and the
negra (``matches``), the team result after every decision on results (``results``), the round robin and
the standings (``schedule``), the knockout after it, the final places and the best pairs (``knockout``),
the captain's link (``captains``)."""
from .captains import captain_link_token, issue_captain_link, line_ups_seen_by, matches_of, submit_by_link, team_of_link
from .knockout import best_pairs, create_knockout_round, places
from .lineups import line_ups_for, set_captain, submit_line_up
from .matches import create_decider, create_team_match
from .results import describe, follow_results, recompute, state_of
from .rosters import add_player, configure, create_team, form_pairs, settings_of
from .schedule import create_round_robin, seeded_teams, standings

__all__ = ["captain_link_token", "issue_captain_link", "line_ups_seen_by", "matches_of", "submit_by_link", "team_of_link",
           "best_pairs", "create_knockout_round", "places", "add_player", "configure", "create_decider", "create_round_robin", "create_team", "create_team_match",
           "describe", "line_ups_for", "set_captain", "submit_line_up", "follow_results", "form_pairs", "recompute", "seeded_teams", "settings_of", "standings", "state_of"]
