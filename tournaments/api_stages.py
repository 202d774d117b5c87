"""REST endpoints of a tournament's stages (``/api/tournaments/{slug}/stages/``, in the OpenAPI
schema): the ordered list with each stage's state, adding, changing and removing a stage before
it starts, the qualifiers a stage's rule gives, starting the next stage (the organizer may give
the qualifiers, with a reason), and undoing a withdrawal. Thin views over
``tournaments.services.stages``; refusals as in ``tournaments.api``.
"""
from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from . import play_serializers as ps
from . import serializers as s
from . import services
from .api import TournamentAPIView, _errors
from .models import Pair, Stage, Tournament


class StageStateSerializer(serializers.ModelSerializer):
    state = serializers.SerializerMethodField(help_text="waiting, in_progress or complete")
    format_name = serializers.CharField(source="get_format_display", read_only=True)
    display_name = serializers.CharField(read_only=True)

    class Meta:
        model = Stage
        fields = ["position", "name", "display_name", "format", "format_name", "state", "seeding", "tiebreaks",
                  "third_place", "grand_final_reset", "group_count", "swiss_rounds", "swiss_order", "legs",
                  "best_of", "round_best_of", "qualification", "qualifiers", "qualifiers_per_group",
                  "qualify_from", "unequal_groups", "entrants", "entrants_adjusted", "started_at", "walkover_scores", "withdrawn_last", "third_place_best_of", "bye_value", "bye_played",
                  "avoid_rounds", "classification", "standings_lot_seed", "lot_seed", "bracket_first_round"]
        read_only_fields = fields

    def get_state(self, obj: Stage) -> str:
        return services.stage_state(obj)


class StageSettingsSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=80, required=False, allow_blank=True)
    format = serializers.ChoiceField(choices=Stage.Format.choices, required=False,
                                     help_text="groups_knockout is only a shortcut of the first stage (stage/).")
    seeding = serializers.ChoiceField(choices=Stage.Seeding.choices, required=False)
    third_place = serializers.BooleanField(required=False)
    grand_final_reset = serializers.BooleanField(required=False)
    group_count = serializers.IntegerField(required=False, min_value=1, max_value=64)
    qualifiers_per_group = serializers.IntegerField(required=False, min_value=1, max_value=64)
    swiss_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=64)
    swiss_order = serializers.ChoiceField(choices=Stage.SwissOrder.choices, required=False)
    legs = serializers.ChoiceField(choices=[1, 2], required=False)
    best_of = serializers.ChoiceField(choices=Tournament.BestOf.choices, required=False, allow_null=True,
                                      help_text="Games per match in this stage: 1, 3 or 5; null: the tournament's.")
    round_best_of = serializers.DictField(child=serializers.IntegerField(), required=False,
                                          help_text='Round of the stage to games per match; "-1" the last round '
                                                    '(in a double elimination the grand final, its reset included), '
                                                    '"-2" the one before: {"-2": 3, "-1": 3}.')
    tiebreaks = s.TiebreakListField(required=False)
    walkover_scores = serializers.BooleanField(required=False)
    bye_value = serializers.ChoiceField(choices=Stage.ByeValue.choices, required=False,
                                        help_text="A bye is worth: win (default), draw (half) or nothing.")
    bye_played = serializers.BooleanField(required=False, help_text="A bye counts in played and won (drawn, "
                                          "lost): P = W + L (default true).")
    third_place_best_of = serializers.ChoiceField(choices=Tournament.BestOf.choices, required=False,
                                                  allow_null=True, help_text="Games in the third-place match: 1, 3 or 5; null: the "
                                                            "stage's (not the final's).")
    withdrawn_last = serializers.BooleanField(required=False, help_text="Withdrawn and disqualified pairs rank below "
                                              "every pair still in (default true).")
    avoid_rounds = serializers.IntegerField(required=False, allow_null=True, min_value=1, max_value=64,
                                            help_text="Pairs sharing an avoid tag "
                                            "are kept apart when possible up to this round; null: every round.")
    classification = serializers.BooleanField(required=False, help_text="A single elimination of 8 or more: the "
                                              "quarterfinal losers play for places 5 to 8 beside the semifinals.")
    qualification = serializers.ChoiceField(choices=Stage.Qualification.choices, required=False)
    qualifiers = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    qualify_from = serializers.IntegerField(required=False, min_value=1, max_value=4096)
    unequal_groups = serializers.ChoiceField(
        choices=Stage.UnequalGroups.choices, required=False,
        help_text="Pairs of one place in groups of different sizes: drop_last (default; the results against the "
                  "last of the larger groups left out) or per_match.")


class QualifiersSerializer(serializers.Serializer):
    stage = serializers.IntegerField(help_text="Position of the stage.")
    qualifiers = serializers.ListField(child=serializers.IntegerField(), help_text="Pair ids, in seed order.")
    names = serializers.ListField(child=serializers.CharField())
    problems = serializers.ListField(child=serializers.CharField(),
                                     help_text="Why the rule cannot be met as it is (then the list is a proposal).")


class StartStageSerializer(serializers.Serializer):
    qualifiers = serializers.ListField(child=serializers.IntegerField(), required=False, allow_null=True,
                                       default=None, help_text="The organizer's qualifiers in seed order "
                                                               "(a reason is then required).")
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


def _stage_or_404(view, position: int) -> Stage:
    stage = get_object_or_404(Stage, tournament=view.get_tournament(), position=position)
    stage.tournament = view.get_tournament()
    return stage


class StageListView(TournamentAPIView):
    """The tournament's stages in order, each with its state; add a stage after the last (organizer)."""

    serializer_class = StageStateSerializer

    @extend_schema(responses=StageStateSerializer(many=True))
    def get(self, request, slug):
        return self.listing(StageStateSerializer, services.stages_of(self.get_tournament()))

    @extend_schema(request=StageSettingsSerializer, responses={201: StageStateSerializer,
                                                                 **_errors(400, 403, 409)})
    def post(self, request, slug):
        stage = services.add_stage(self.get_tournament(), request.user, **self.read(StageSettingsSerializer))
        return Response(StageStateSerializer(stage).data, status=status.HTTP_201_CREATED)


class StageDetailView(TournamentAPIView):
    """One stage; change it (PATCH) or remove it (DELETE, the last one) while it has not started."""

    serializer_class = StageStateSerializer

    @extend_schema(responses={200: StageStateSerializer, **_errors(404)})
    def get(self, request, slug, position):
        return Response(StageStateSerializer(_stage_or_404(self, position)).data)

    @extend_schema(request=StageSettingsSerializer, responses={200: StageStateSerializer,
                                                                 **_errors(400, 403, 404, 409)})
    def patch(self, request, slug, position):
        stage = services.update_stage(_stage_or_404(self, position), request.user,
                                      **self.read(StageSettingsSerializer))
        return Response(StageStateSerializer(stage).data)

    @extend_schema(responses={204: None, **_errors(403, 404, 409)})
    def delete(self, request, slug, position):
        services.remove_stage(_stage_or_404(self, position), request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class StageQualifiersView(TournamentAPIView):
    """The qualifiers a later stage's rule gives now, in seed order (a proposal when it cannot be met)."""

    serializer_class = QualifiersSerializer

    @extend_schema(responses={200: QualifiersSerializer, **_errors(404, 409)})
    def get(self, request, slug, position):
        stage = _stage_or_404(self, position)
        if stage.position == 1:
            raise services.TournamentError(_("The first stage's entrants are the registered pairs."), "stage")
        result = services.stage_qualifiers(stage)
        names = dict(Pair.objects.filter(pk__in=result.order).values_list("pk", "name"))
        return Response({"stage": stage.position, "qualifiers": result.order,
                         "names": [names[p] for p in result.order], "problems": result.problems})


class StageStartView(TournamentAPIView):
    """Start the next stage once the current one is complete: its qualifiers by its rule, or the
    organizer's (``qualifiers`` in seed order, with a ``reason``, audited). Returns its first round."""

    serializer_class = StartStageSerializer

    @extend_schema(request=StartStageSerializer, responses={201: ps.RoundSerializer, **_errors(400, 403, 409)})
    def post(self, request, slug):
        data = self.read(StartStageSerializer)
        rnd = services.start_next_stage(self.get_tournament(), request.user, qualifiers=data["qualifiers"],
                                        reason=data["reason"])
        return Response(ps.RoundSerializer(rnd).data, status=status.HTTP_201_CREATED)


class StageStandingsView(TournamentAPIView):
    """One stage's standings (its own results and tiebreaks; a knockout by its placings)."""

    serializer_class = s.StandingsSerializer

    @extend_schema(responses={200: s.StandingsSerializer, **_errors(404)})
    def get(self, request, slug, position):
        return Response(services.standings(self.get_tournament(), _stage_or_404(self, position)).as_dict())


class PairReinstateView(TournamentAPIView):
    """Undo a pair's withdrawal, with a reason (audited): it is paired again from the next round."""

    serializer_class = s.ReasonSerializer

    @extend_schema(request=s.ReasonSerializer, responses={200: s.PairSerializer, **_errors(400, 403, 404, 409)})
    def post(self, request, slug, pair_id):
        pair = get_object_or_404(Pair, pk=pair_id, tournament=self.get_tournament())
        services.reinstate_pair(pair, request.user, self.read(s.ReasonSerializer)["reason"])
        pair.refresh_from_db()
        return Response(s.PairSerializer(pair, context=self.get_serializer_context()).data)
