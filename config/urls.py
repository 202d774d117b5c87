"""Top-level URL map: pages, the REST API and its OpenAPI schema."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from referee import start

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("entrar/", start.RoleLoginView.as_view(), name="login"),
    path("inicio/", start.start, name="start"),
    path("meus-torneios/", start.organizer_home, name="organizer-home"),
    path("sair/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/referee/", include("referee.api_urls")),
    path("api/scoring/", include("scoring.api_urls")),
    path("api/tournaments/", include("tournaments.api_urls")),
    path("arbitragem/", include("referee.urls")),
    path("sumulas/impressao/", include("tournaments.print_urls")),
    path("sumulas/", include("scoring.urls")),
    path("", include("tournaments.urls")),
]
