"""How the room plugs into the layers below it, each by one explicit registration (``RoomConfig.ready``):

- scoring's hook ``match_started`` (a match's first hand): its time limit starts (``services.time_limit``);
- tournaments' ``after_results.register_follower``: after every decision on results, with ``ready_matches``
  and ``auto_call`` on, the ready matches are called to the free tables (``services.ready.auto_call``);
- tournaments' ``room_hooks.register``: :class:`TournamentsRoom`, what tournaments' services and pages ask
  of the room (the rounds made at the draw, the pairs told of their calls, the dashboard's room section,
  the pair page's check-in and notices, the projector's calls and clock, when a match was called or
  started);
- the public pages' ``freshness.register_source``: the room's options move the live pages' change marker.
"""
from __future__ import annotations

from django.conf import settings

from scoring import hook
from scoring.models import Match
from public import freshness
from tournaments import room_hooks
from tournaments.services import after_results

from .calls_board import called_now, round_clock
from .models import MatchCall, RoomSettings
from .services import notify, ready, self_check_in, time_limit


def follow_results(tournament, by, match_ids) -> None:
    """After a decision on results (``after_results.results_changed``): the next ready matches called."""
    ready.auto_call(tournament)


class TournamentsRoom(room_hooks.Room):
    """The room's answers to tournaments (``tournaments.room_hooks``)."""

    def after_draw(self, stage, first, by) -> list:
        return ready.after_draw(stage, first, by)

    def round_called(self, rnd) -> None:
        if notify.push_configured() or notify.email_configured():
            for pk, table in Match.objects.filter(round=rnd, table__isnull=False).values_list("pk", "table"):
                notify.match_called(pk, table)

    def match_called(self, match_id: int, table: int) -> None:
        notify.match_called(match_id, table)

    def notices(self) -> dict[str, bool]:
        return {"push": notify.push_configured(), "email": notify.email_configured()}

    def dashboard(self, tournament, drawn: bool, stage) -> dict:
        from .views import dashboard_room  # the pages load after the models: not at start-up

        return dashboard_room(tournament, drawn, stage)

    def pair_page(self, tournament, pair) -> dict:
        return {"self_check_in": self_check_in.state(tournament, pair),
                "notify": {**self.notices(), "vapid": settings.WEBPUSH_VAPID_PUBLIC_KEY}}

    def projector(self, tournament, current) -> tuple[list, object]:
        room = ready.room_of(tournament)
        return called_now(tournament, room), round_clock(current, room)

    def called_at(self, match):
        return MatchCall.objects.filter(match=match).values_list("called_at", flat=True).first()

    def started_at(self, match_ids: list[int]) -> dict:
        return dict(MatchCall.objects.filter(match_id__in=match_ids, started_at__isnull=False)
                    .values_list("match_id", "started_at"))


def register() -> None:
    hook.register(match_started=time_limit.match_started)
    after_results.register_follower(follow_results)
    room_hooks.register(TournamentsRoom())
    freshness.register_source("room", (RoomSettings.objects, "tournament", ("updated_at",)))
