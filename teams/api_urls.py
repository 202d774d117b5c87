"""REST endpoints of the teams app (mounted at /api/teams/); see ``teams.api``."""
from django.urls import path

from . import api

app_name = "teams-api"
T = "<slug:slug>/"
urlpatterns = [
    path(T + "rules/", api.TeamRulesView.as_view(), name="rules"),
    path(T + "teams/", api.TeamListView.as_view(), name="teams"),
    path(T + "teams/<int:team_id>/players/", api.TeamPlayerView.as_view(), name="team-players"),
    path(T + "teams/<int:team_id>/pairs/", api.TeamPairsView.as_view(), name="team-pairs"),
    path(T + "round-robin/", api.RoundRobinView.as_view(), name="round-robin"),
    path(T + "matches/", api.TeamMatchListView.as_view(), name="matches"),
    path(T + "knockout/", api.KnockoutView.as_view(), name="knockout"),
    path(T + "places/", api.PlacesView.as_view(), name="places"),
    path(T + "pair-ranking/", api.PairRankingView.as_view(), name="pair-ranking"),
    path(T + "standings/", api.TeamStandingsView.as_view(), name="standings"),
]
