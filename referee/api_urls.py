"""REST endpoints of the referee app (mounted under /api/referee/): the hand validator (``api``) and
the rulings, appeals, policies and settings (``rulings_api``)."""
from django.urls import path

from . import rulings_api as r
from . import calls_api as c
from .api import ValidateHandsView

urlpatterns = [
    path("hands/validate/", ValidateHandsView.as_view(), name="referee-hands-validate"),
    path("catalog/", r.CatalogView.as_view(), name="referee-catalog"),
    path("matches/<int:pk>/rulings/", r.MatchRulingsView.as_view(), name="referee-match-rulings"),
    path("rulings/<int:pk>/", r.RulingDetailView.as_view(), name="referee-ruling"),
    path("rulings/<int:pk>/confirm/", r.ConfirmView.as_view(), name="referee-ruling-confirm"),
    path("rulings/<int:pk>/reject/", r.RejectView.as_view(), name="referee-ruling-reject"),
    path("rulings/<int:pk>/escalate/", r.EscalateView.as_view(), name="referee-ruling-escalate"),
    path("rulings/<int:pk>/decide/", r.DecideView.as_view(), name="referee-ruling-decide"),
    path("rulings/<int:pk>/appeals/", r.AppealView.as_view(), name="referee-ruling-appeal"),
    path("appeals/<int:pk>/decision/", r.AppealDecisionView.as_view(), name="referee-appeal-decision"),
    path("pairs/<int:pk>/history/", r.PairHistoryView.as_view(), name="referee-pair-history"),
    path("tournaments/<slug:slug>/escalation-policies/", r.PoliciesView.as_view(), name="referee-policies"),
    path("tournaments/<slug:slug>/settings/", r.SettingsView.as_view(), name="referee-settings"),
    path("matches/<int:pk>/calls/", c.MatchCallsView.as_view(), name="referee-match-calls"),
    path("calls/<int:pk>/take/", c.TakeCallView.as_view(), name="referee-call-take"),
    path("calls/<int:pk>/resolve/", c.ResolveCallView.as_view(), name="referee-call-resolve"),
    path("calls/<int:pk>/withdraw/", c.WithdrawCallView.as_view(), name="referee-call-withdraw"),
]
