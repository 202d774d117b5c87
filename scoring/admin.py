"""Admin of the súmulas: read-only views of matches, versions, signatures and the audit trail.

Every change goes through the entry page or the API (``scoring.services``); the admin only links to them.
"""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from .models import Match, MatchEvent, Signature, SumulaVersion


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class VersionInline(admin.TabularInline):
    model = SumulaVersion
    fields = ["number", "digest", "reason", "created_by", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["id", "tournament", "round", "table", "pair_a", "pair_b", "status", "winner", "entry_page"]
    list_filter = ["status", "tournament"]
    search_fields = ["pair_a__name", "pair_b__name"]
    inlines = [VersionInline]

    @admin.display(description=_("súmula"))
    def entry_page(self, match):
        return format_html('<a href="{}">{}</a>', reverse("scoring:match", kwargs={"pk": match.pk}), _("open"))


@admin.register(SumulaVersion)
class SumulaVersionAdmin(ReadOnlyAdmin):
    list_display = ["match", "number", "digest", "reason", "created_at"]
    search_fields = ["digest"]


@admin.register(Signature)
class SignatureAdmin(ReadOnlyAdmin):
    list_display = ["version", "role", "player", "user", "method", "signed_at"]


@admin.register(MatchEvent)
class MatchEventAdmin(ReadOnlyAdmin):
    list_display = ["match", "kind", "by", "at"]
    list_filter = ["kind"]
