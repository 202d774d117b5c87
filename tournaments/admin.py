"""Admin of the tournaments, for site operators: tournaments, players, pairs and rounds are
editable; what the services derive (formats, brackets, groups, byes, check-ins, tables,
results) is shown read-only, and the audit trail (append-only) too. Changes go through the
organizer's pages, which keep them consistent and audited."""
from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from config.view_only_admin import ViewOnlyAdmin

from .models import (
    AuditEntry, BracketNode, Bye, CheckIn, GroupMember, Pair, Player, Result, Round, Stage, TableAssignment,
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


class PlayerForm(forms.ModelForm):
    """The signing PIN (art. 25) is typed here and kept only as a hash (``Player.set_pin``)."""

    new_pin = forms.CharField(
        label=_("New signing PIN"), required=False, min_length=4, max_length=12,
        widget=forms.PasswordInput(render_value=False, attrs={"inputmode": "numeric", "autocomplete": "new-password"}),
        help_text=_("4 to 12 digits; leave empty to keep the current PIN. Only its hash is stored."),
    )
    remove_pin = forms.BooleanField(label=_("Remove the signing PIN"), required=False)

    class Meta:
        model = Player
        fields = ["name", "nickname", "club", "contact"]

    def clean_new_pin(self):
        pin = self.cleaned_data.get("new_pin", "")
        if pin and not pin.isdigit():
            raise forms.ValidationError(_("A PIN has only digits."))
        return pin

    def save(self, commit=True):
        player = super().save(commit=False)
        if self.cleaned_data.get("remove_pin"):
            player.set_pin(None)
        elif self.cleaned_data.get("new_pin"):
            player.set_pin(self.cleaned_data["new_pin"])
        if commit:
            player.save()
        return player


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    form = PlayerForm
    list_display = ["name", "nickname", "club", "contact", "has_pin"]
    search_fields = ["name", "nickname", "club"]

    @admin.display(boolean=True, description=_("signing PIN"))
    def has_pin(self, player):
        return player.has_pin


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
