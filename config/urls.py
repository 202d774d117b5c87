"""Top-level URL map: pages, the REST API and its OpenAPI schema."""
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from config.api import api_not_found

urlpatterns = [
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("entrar/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("sair/", auth_views.LogoutView.as_view(), name="logout"),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/referee/", include("referee.api_urls")),
    path("api/scoring/", include("scoring.api_urls")),
    path("api/tournaments/", include("tournaments.api_urls")),
    re_path(r"^api/", api_not_found),  # any other address under /api/ (e.g. a non-numeric id): a JSON 404
    path("arbitragem/", include("referee.urls")),
    path("sumulas/impressao/", include("tournaments.print_urls")),
    path("sumulas/", include("scoring.urls")),
    path("", include("tournaments.urls")),
]
