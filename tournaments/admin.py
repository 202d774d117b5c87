from django.contrib import admin

from .models import Pair, Player, Round, Tournament


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


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "nickname", "club", "contact"]
    search_fields = ["name", "nickname", "club"]


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
