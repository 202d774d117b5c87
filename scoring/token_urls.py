"""``/conta/tokens/``: a user's API tokens (scoring.token_views)."""
from django.urls import path

from . import token_views

app_name = "api-tokens"
urlpatterns = [
    path("", token_views.tokens_page, name="list"),
    path("<int:pk>/revogar/", token_views.revoke, name="revoke"),
]
