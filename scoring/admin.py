"""Admin of the súmulas: the organizer creates matches here (through ``services.create_match``);
matches, games, entries, versions, signatures and the audit trail are otherwise read-only.
Print jobs are listed for operators, who may delete them (their PDF goes with them).

Every change to a súmula goes through the entry page or the API (``scoring.services``); the admin
links to the entry page.
"""
from django import forms
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from config.view_only_admin import ViewOnlyAdmin

from . import services
from .models import Game, HandEntry, Match, MatchEvent, PenaltyEntry, Signature, SumulaVersion


class ReadOnlyAdmin(ViewOnlyAdmin):
    """View-only, and every active staff member may look (no model permission needed)."""

    def has_module_permission(self, request):
        return request.user.is_active and request.user.is_staff

    def has_view_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff


class VersionInline(admin.TabularInline):
    model = SumulaVersion
    fields = ["number", "digest", "reason", "created_by", "created_at"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class NewMatchForm(forms.ModelForm):
    """Checked by ``services.check_new_match``: pairs of the tournament, its rules and format."""

    best_of = forms.TypedChoiceField(label=_("best of"), required=False, coerce=int, empty_value=None,
                                     choices=[("", _("the tournament's")), (1, "1"), (3, "3"), (5, "5")])

    class Meta:
        model = Match
        fields = ["tournament", "round", "table", "referee", "pair_a", "pair_b"]

    def clean(self):
        data = super().clean()
        if self.errors or not data.get("pair_a") or not data.get("pair_b"):
            return data
        try:
            services.check_new_match(by=self.user, **data)
        except services.ScoringError as error:
            field = error.field if error.field in self.fields else None
            raise forms.ValidationError({field: error.message} if field else error.message) from None
        return data


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["id", "tournament", "round", "table", "pair_a", "pair_b", "status", "winner", "entry_page"]
    list_filter = ["status", "tournament"]
    search_fields = ["pair_a__name", "pair_b__name"]
    inlines = [VersionInline]
    form = NewMatchForm

    def has_add_permission(self, request, obj=None):
        return request.user.is_active and request.user.is_staff

    def get_inlines(self, request, obj):
        return self.inlines if obj else []

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        form.user = request.user
        return form

    def save_model(self, request, obj, form, change):
        data = form.cleaned_data
        match = services.create_match(by=request.user, **{k: data.get(k) for k in (
            "tournament", "round", "table", "referee", "pair_a", "pair_b", "best_of")})
        obj.pk = match.pk

    def save_related(self, request, form, formsets, change):
        pass

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


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["match", "number", "score_a", "score_b", "winner"]


@admin.register(HandEntry)
class HandEntryAdmin(ReadOnlyAdmin):
    list_display = ["game", "position"]
    exclude = ["verdict"]


@admin.register(PenaltyEntry)
class PenaltyEntryAdmin(ReadOnlyAdmin):
    list_display = ["game", "position"]

