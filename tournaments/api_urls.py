"""REST endpoints of the tournaments app (mounted at /api/tournaments/ through ``public.api_urls``, which adds
the public ones to the same ``tournaments-api`` namespace); see ``tournaments.api``."""
from django.urls import path

from . import api, api_play, api_stages

app_name = "tournaments-api"
T = "<slug:slug>/"
urlpatterns = [
    path("", api.TournamentListView.as_view(), name="list"),
    path(T, api.TournamentDetailView.as_view(), name="detail"),
    path(T + "pairs/", api.PairListView.as_view(), name="pairs"),
    path(T + "pairs/import/", api.PairImportView.as_view(), name="pairs-import"),
    path(T + "pairs/<int:pair_id>/", api.PairDetailView.as_view(), name="pair"),
    path(T + "pairs/<int:pair_id>/withdraw/", api.PairWithdrawView.as_view(), name="pair-withdraw"),
    path(T + "pairs/<int:pair_id>/disqualify/", api.PairDisqualifyView.as_view(), name="pair-disqualify"),
    path(T + "placings/override/", api.PlacingOverrideView.as_view(), name="placing-override"),
    path(T + "pairs/<int:pair_id>/reinstate/", api_stages.PairReinstateView.as_view(), name="pair-reinstate"),
    path(T + "stage/", api.StageView.as_view(), name="stage"),
    path(T + "stages/", api_stages.StageListView.as_view(), name="stages"),
    path(T + "stages/next/", api_stages.StageStartView.as_view(), name="stages-next"),
    path(T + "stages/<int:position>/", api_stages.StageDetailView.as_view(), name="stage-detail"),
    path(T + "stages/<int:position>/qualifiers/", api_stages.StageQualifiersView.as_view(),
         name="stage-qualifiers"),
    path(T + "stages/<int:position>/standings/", api_stages.StageStandingsView.as_view(), name="stage-standings"),
    path(T + "rounds/", api_play.RoundListView.as_view(), name="rounds"),
    path(T + "rounds/generate/", api_play.RoundGenerateView.as_view(), name="rounds-generate"),
    path(T + "rounds/next/", api_play.RoundNextView.as_view(), name="rounds-next"),
    path(T + "rounds/<int:number>/", api_play.RoundDetailView.as_view(), name="round"),
    path(T + "rounds/<int:number>/regenerate/", api_play.RoundRegenerateView.as_view(), name="round-regenerate"),
    path(T + "check-ins/", api_play.CheckInListView.as_view(), name="check-ins"),
    path(T + "check-ins/<int:check_in_id>/", api_play.CheckInDetailView.as_view(), name="check-in"),
    path(T + "tables/", api_play.TableListView.as_view(), name="tables"),
    path(T + "tables/<int:assignment_id>/", api_play.TableDetailView.as_view(), name="table"),
    path(T + "matches/", api_play.MatchListView.as_view(), name="matches"),
    path(T + "matches/<int:match_id>/", api_play.MatchDetailView.as_view(), name="match"),
    path(T + "matches/<int:match_id>/walkover/", api_play.MatchWalkoverView.as_view(), name="match-walkover"),
    path(T + "matches/<int:match_id>/double-walkover/", api_play.MatchDoubleWalkoverView.as_view(),
         name="match-double-walkover"),
    path(T + "matches/<int:match_id>/result/", api_play.MatchResultView.as_view(), name="match-result"),
    path(T + "matches/<int:match_id>/pairing/", api_play.MatchPairingView.as_view(), name="match-pairing"),
    path(T + "matches/<int:match_id>/swap-tables/", api_play.MatchSwapTablesView.as_view(), name="match-swap-tables"),
    path(T + "standings/", api.StandingsView.as_view(), name="standings"),
    path(T + "bracket/", api.BracketView.as_view(), name="bracket"),
    path(T + "audit/", api.AuditListView.as_view(), name="audit"),
]
