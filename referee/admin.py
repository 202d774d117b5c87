"""Admin of the referee module: rulings and appeals are read-only (they change through
``referee.services``, which writes the súmula); policies and settings are edited by organizers."""
from django.contrib import admin

from config.view_only_admin import ViewOnlyAdmin

from .models import Appeal, EscalationPolicy, RefereeSettings, Ruling


@admin.register(Ruling)
class RulingAdmin(ViewOnlyAdmin):
    list_display = ("id", "match", "code", "article", "points", "step", "status", "referee", "created_at")
    list_filter = ("status", "code", "step")
    search_fields = ("code", "article", "message")


@admin.register(Appeal)
class AppealAdmin(ViewOnlyAdmin):
    list_display = ("id", "ruling", "team", "player", "decision", "filed_at", "decided_at")
    list_filter = ("decision",)


@admin.register(EscalationPolicy)
class EscalationPolicyAdmin(admin.ModelAdmin):
    list_display = ("tournament", "code", "steps")


@admin.register(RefereeSettings)
class RefereeSettingsAdmin(admin.ModelAdmin):
    list_display = ("tournament", "appeal_window_minutes")
