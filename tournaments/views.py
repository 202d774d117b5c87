from django.db.models import Count
from django.views.generic import DetailView, ListView

from .models import Tournament


class TournamentListView(ListView):
    model = Tournament
    template_name = "home.html"
    context_object_name = "tournaments"

    def get_queryset(self):
        return Tournament.objects.select_related("organizer").annotate(pair_count=Count("pairs"))


class TournamentDetailView(DetailView):
    model = Tournament
    context_object_name = "tournament"

    def get_queryset(self):
        return Tournament.objects.select_related("organizer")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["pairs"] = self.object.pairs.select_related("first_player", "second_player", "substitute")
        return context
