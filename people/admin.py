"""Admin of the people, for site operators: players (their signing PIN typed here is kept only as a
hash) and clubs are editable; merges and personal data links are shown read-only (they are made by
the services, which audit them: docs/people.md)."""
from django import forms
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from config.view_only_admin import ViewOnlyAdmin

from .models import Club, ClubMembership, DataAccessLink, Player, PlayerMerge
from .services import clubs


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
        fields = ["name", "nickname", "club", "federation_number", "contact"]

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
    list_display = ["name", "nickname", "club", "federation_number", "contact", "has_pin"]
    search_fields = ["name", "nickname", "club__name", "federation_number"]
    list_select_related = ["club"]
    autocomplete_fields = ["club"]

    def save_model(self, request, obj, form, change):
        """A changed club goes through ``clubs.join_club`` (the one path: the membership history follows)."""
        moved = "club" in form.changed_data
        new_club = form.cleaned_data.get("club")
        if moved:
            obj.club_id = Player.objects.filter(pk=obj.pk).values_list("club_id", flat=True).first() if change else None
        super().save_model(request, obj, form, change)
        if moved:
            clubs.join_club(obj, new_club)

    @admin.display(boolean=True, description=_("signing PIN"))
    def has_pin(self, player):
        return player.has_pin


class MembershipInline(admin.TabularInline):
    model = ClubMembership
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city"]
    search_fields = ["name", "city"]
    filter_horizontal = ["organizers"]
    inlines = [MembershipInline]


@admin.register(PlayerMerge)
class PlayerMergeAdmin(ViewOnlyAdmin):
    list_display = ["kept", "duplicate", "reason", "merged_by", "merged_at", "undone_at"]


@admin.register(DataAccessLink)
class DataAccessLinkAdmin(ViewOnlyAdmin):
    list_display = ["player", "issued_by", "issued_at", "expires_at", "revoked_at", "used_at"]
    exclude = ["token_hash"]
