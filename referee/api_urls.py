"""REST endpoints of the referee app (mounted under /api/referee/); the views live in ``api``."""
from django.urls import path

from .api import ValidateHandsView

urlpatterns = [
    path("hands/validate/", ValidateHandsView.as_view(), name="referee-hands-validate"),
]
