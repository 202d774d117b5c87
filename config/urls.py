"""Top-level URL map: pages, the REST API and its OpenAPI schema."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from config.api import api_not_found
from .views import healthz, readyz

handler400 = "config.error_views.bad_request"
handler403 = "config.error_views.permission_denied"
handler404 = "config.error_views.page_not_found"
handler500 = "config.error_views.server_error"

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("referee.start_urls")),  # login and each role's start page
    path("", include("referee.invitation_urls")),  # referees' invitation links
    path("", include("referee.account_urls")),  # organizer accounts and locked logins
    path("sair/", auth_views.LogoutView.as_view(), name="logout"),
    path("conta/tokens/", include("scoring.token_urls")),  # API tokens for scripts
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # the split view serves its script from the site (?script), not inline: the CSP allows it
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("api/referee/", include("referee.api_urls")),
    path("api/scoring/", include("scoring.api_urls")),
    path("api/tournaments/", include("room.api_urls")),  # a tournament's room: ready matches, calls
    path("api/tournaments/", include("public.api_urls")),  # with tournaments.api_urls in one namespace
    path("api/tournaments/", include("seasons.flight_api")),  # a tournament's categories
    path("api/people/", include("tournaments.people_api")),
    path("api/people/", include("seasons.rating_api")),  # players/<id>/ratings/
    path("api/circuits/", include("seasons.circuit_api")),
    path("api/organizations/", include("tournaments.organization_api")),  # the caller's clubs and federations
    path("api/teams/", include("teams.api_urls")),
    path("equipes/", include("teams.urls")),  # the team pages
    re_path(r"^api/", api_not_found),  # any other address under /api/ (e.g. a non-numeric id): a JSON 404
    path("arbitragem/", include("referee.urls")),
    path("mesa/", include("referee.table_urls")),
    path("sumulas/impressao/", include("printing.urls")),
    path("sumulas/", include("scoring.urls")),
    path("torneios/<slug:slug>/sala/", include("referee.monitor_urls")),  # the room monitor
    path("", include("finance.urls")),  # an event's fees, payments and prizes
    path("", include("room.urls")),  # the room: calls, options, a pair's check-in and notices
    path("", include("fairplay.urls")),  # an event's fair-play report (organizers and referees)
    path("", include("seasons.urls")),  # circuits, ratings and categories
    path("", include("public.urls")),  # the public pages, with tournaments.urls in one namespace
]
