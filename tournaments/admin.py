"""Admin of the tournaments, for site operators: tournaments, players, pairs and rounds are
editable; what the services derive (formats, brackets, groups, byes, check-ins, tables,
results) is shown read-only, and the audit trail (append-only) too. Changes go through the
organizer's pages, which keep them consistent and audited."""
from django.contrib import admin

from config.view_only_admin import ViewOnlyAdmin

from .models import (
    AuditEntry, BracketNode, Bye, CheckIn, GroupMember, Pair, Result, Round, Stage, TableAssignment,
    Tournament,
)


class PairInline(admin.TabularInline):
    model = Pair
    extra = 0
    autocomplete_fields = ["first_player", "second_player", "substitute"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "venue", "status", "best_of", "organizer"]
    list_filter = ["status", "best_of"]
    search_fields = ["name", "venue"]
    prepopulated_fields = {"slug": ["name"]}
    date_hierarchy = "date"
    inlines = [PairInline]


@admin.register(Pair)
class PairAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "first_player", "second_player", "substitute"]
    list_filter = ["tournament"]
    search_fields = ["name", "first_player__name", "second_player__name"]
    autocomplete_fields = ["first_player", "second_player", "substitute"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "name"]
    list_filter = ["tournament"]


@admin.register(Stage)
class StageAdmin(ViewOnlyAdmin):
    list_display = ["tournament", "format", "seeding", "third_place", "updated_at"]
    list_filter = ["format"]
    search_fields = ["tournament__name"]


@admin.register(BracketNode)
class BracketNodeAdmin(ViewOnlyAdmin):
    list_display = ["stage", "code", "section", "bracket_round", "position", "top_pair", "bottom_pair", "winner", "match"]
    list_filter = ["section", "stage__tournament"]


@admin.register(GroupMember)
class GroupMemberAdmin(ViewOnlyAdmin):
    list_display = ["stage", "group", "number", "pair"]
    list_filter = ["stage__tournament"]


@admin.register(Bye)
class ByeAdmin(ViewOnlyAdmin):
    list_display = ["round", "pair"]
    list_filter = ["round__tournament"]


@admin.register(CheckIn)
class CheckInAdmin(ViewOnlyAdmin):
    list_display = ["round", "pair", "checked_in_at", "checked_in_by"]
    list_filter = ["round__tournament"]
    search_fields = ["pair__name"]


@admin.register(TableAssignment)
class TableAssignmentAdmin(ViewOnlyAdmin):
    list_display = ["tournament", "round", "table", "referee"]
    list_filter = ["tournament"]


@admin.register(Result)
class ResultAdmin(ViewOnlyAdmin):
    list_display = ["match", "tournament", "kind", "winner", "games_a", "games_b", "recorded_by", "recorded_at"]
    list_filter = ["kind", "tournament"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ViewOnlyAdmin):
    """Append-only (``config.history.AppendOnly``)."""

    list_display = ["tournament", "action", "actor", "reason", "at"]
    list_filter = ["action", "tournament"]
    search_fields = ["reason"]
