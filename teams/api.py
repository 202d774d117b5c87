"""REST endpoints for teams (mounted at /api/teams/<slug>/, in the OpenAPI schema): the event's team rules,
the teams and their rosters, the round robin, the team matches with their tables and score, the team
standings. Thin views over ``teams.services``; reads are public, writes need who manages the tournament
(checked here by ``tournaments.api``'s permission and again by the services); a refusal is
``{"field": ..., "message": ...}`` with 400, 403 or 409."""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from people.models import Club, Player
from drf_spectacular.utils import OpenApiResponse
from tournaments.api import TournamentAPIView
from tournaments.serializers import TournamentErrorSerializer

from . import serializers as s
from . import services
from .models import Team, TeamMatch


def _errors(*codes: int) -> dict:
    return {code: OpenApiResponse(TournamentErrorSerializer) for code in codes}


class TeamRulesView(TournamentAPIView):
    """The event's team rules (art. 26): the team result, the roster limits, the tables of a match."""

    serializer_class = s.TeamSettingsSerializer

    @extend_schema(responses={200: s.TeamSettingsSerializer, **_errors(404)})
    def get(self, request, slug):
        return Response(s.TeamSettingsSerializer(services.settings_of(self.get_tournament())).data)

    @extend_schema(request=s.TeamSettingsSerializer, responses={200: s.TeamSettingsSerializer,
                                                                **_errors(400, 403, 404)})
    def put(self, request, slug):
        data = self.read(s.TeamSettingsSerializer)
        return Response(s.TeamSettingsSerializer(services.configure(self.get_tournament(), request.user,
                                                                    **data)).data)


class TeamListView(TournamentAPIView):
    """The tournament's teams with their rosters and pairs; POST a new team of a club."""

    serializer_class = s.TeamSerializer

    @extend_schema(responses={200: s.TeamSerializer(many=True), **_errors(404)})
    def get(self, request, slug):
        return self.listing(s.TeamSerializer, services.seeded_teams(self.get_tournament()))

    @extend_schema(request=s.NewTeamSerializer, responses={201: s.TeamSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug):
        data = self.read(s.NewTeamSerializer)
        club = get_object_or_404(Club, pk=data["club"])
        team = services.create_team(self.get_tournament(), request.user, club=club, name=data["name"],
                                    seed=data.get("seed"))
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)


class TeamView(TournamentAPIView):
    serializer_class = s.TeamSerializer

    def team(self, team_id: int) -> Team:
        return get_object_or_404(Team, pk=team_id, tournament=self.get_tournament())


class TeamPlayerView(TeamView):
    """Put a player on the team's roster, after the others (one team per event, art. 26)."""

    @extend_schema(request=s.NewPlayerSerializer, responses={201: s.TeamSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug, team_id):
        data = self.read(s.NewPlayerSerializer)
        team = self.team(team_id)
        services.add_player(team, request.user, get_object_or_404(Player, pk=data["player"]), reserve=data["reserve"])
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)


class TeamPairsView(TeamView):
    """Form the team's pairs from its roster in order (players 1-2 at table 1, 3-4 at table 2, …)."""

    @extend_schema(request=None, responses={201: s.TeamSerializer, **_errors(403, 404, 409)})
    def post(self, request, slug, team_id):
        team = self.team(team_id)
        services.form_pairs(team, request.user)
        return Response(s.TeamSerializer(team).data, status=status.HTTP_201_CREATED)


def _team_matches(tournament):
    return (TeamMatch.objects.filter(tournament=tournament).select_related("home", "away")
            .prefetch_related("tables__match").order_by("round_number", "pk"))


class TeamMatchListView(TournamentAPIView):
    """The team matches, round by round, with their tables and score."""

    serializer_class = s.TeamMatchSerializer

    @extend_schema(responses={200: s.TeamMatchSerializer(many=True), **_errors(404)})
    def get(self, request, slug):
        return self.listing(s.TeamMatchSerializer, _team_matches(self.get_tournament()))


class RoundRobinView(TournamentAPIView):
    """Draw the round robin of the teams (the Berger tables, teams in seed order)."""

    serializer_class = s.RoundRobinSerializer
    pagination_class = None  # answers the team matches it drew, whole

    @extend_schema(request=s.RoundRobinSerializer, responses={201: s.TeamMatchSerializer(many=True),
                                                              **_errors(400, 403, 404, 409)})
    def post(self, request, slug):
        data = self.read(s.RoundRobinSerializer)
        services.create_round_robin(self.get_tournament(), request.user, best_of=data.get("best_of"))
        return Response(s.TeamMatchSerializer(_team_matches(self.get_tournament()), many=True).data,
                        status=status.HTTP_201_CREATED)


class KnockoutView(TournamentAPIView):
    """Draw the knockout's next round: the semifinals of the round robin's top four (1st × 4th, 2nd × 3rd),
    then the final and the 3rd-place match (art. 26, docs/teams.md)."""

    serializer_class = s.RoundRobinSerializer
    pagination_class = None  # answers the team matches it drew, whole

    @extend_schema(request=s.RoundRobinSerializer, responses={201: s.TeamMatchSerializer(many=True),
                                                              **_errors(400, 403, 404, 409)})
    def post(self, request, slug):
        data = self.read(s.RoundRobinSerializer)
        drawn = services.create_knockout_round(self.get_tournament(), request.user, best_of=data.get("best_of"))
        matches = _team_matches(self.get_tournament()).filter(pk__in=[m.pk for m in drawn])
        return Response(s.TeamMatchSerializer(matches, many=True).data, status=status.HTTP_201_CREATED)


class PlacesView(TournamentAPIView):
    """The event's final places once the final and the 3rd-place match are decided (empty before)."""

    serializer_class = s.PlaceSerializer

    @extend_schema(responses={200: s.PlaceSerializer(many=True), **_errors(404)})
    def get(self, request, slug):
        rows = [{"place": n, "team": team.pk, "name": team.name}
                for n, team in enumerate(services.places(self.get_tournament()), start=1)]
        return self.listing(s.PlaceSerializer, rows)


class PairRankingView(TournamentAPIView):
    """The best pairs: ranked by wins, tento difference, game difference, fewer appearances, over their
    matches inside the team matches (the negras apart)."""

    serializer_class = s.PairRankingSerializer

    @extend_schema(responses={200: s.PairRankingSerializer(many=True), **_errors(404)})
    def get(self, request, slug):
        rows = [{"rank": r.rank, "pair": r.pair, "name": tp.pair.name, "team": tp.team_id, "table": tp.position,
                 "played": r.played, "won": r.won, "point_difference": r.point_difference,
                 "game_difference": r.game_difference}
                for r, tp in services.best_pairs(self.get_tournament())]
        return self.listing(s.PairRankingSerializer, rows)


class TeamStandingsView(TournamentAPIView):
    """The teams ranked by the event's tiebreaks (match points, pair-win difference, game difference,
    head-to-head)."""

    serializer_class = s.TeamStandingSerializer

    @extend_schema(responses={200: s.TeamStandingSerializer(many=True), **_errors(404)})
    def get(self, request, slug):
        rows = [{"rank": r.rank, "team": r.team, "played": r.played, "won": r.won, "lost": r.lost,
                 "match_points": r.match_points, "pair_win_difference": r.pair_win_difference,
                 "game_difference": r.game_difference, "values": r.values}
                for r in services.standings(self.get_tournament())]
        return self.listing(s.TeamStandingSerializer, rows)
