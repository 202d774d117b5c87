"""REST endpoints of the scoring app (mounted at /api/scoring/)."""
from django.urls import path

from . import api

app_name = "scoring-api"
urlpatterns = [
    path("matches/", api.MatchCreateView.as_view(), name="match-create"),
    path("matches/<int:pk>/", api.MatchDetailView.as_view(), name="match"),
    path("matches/<int:pk>/hands/", api.HandView.as_view(), name="hand"),
    path("matches/<int:pk>/penalties/", api.PenaltyView.as_view(), name="penalty"),
    path("matches/<int:pk>/undo/", api.UndoView.as_view(), name="undo"),
    path("matches/<int:pk>/conflicts/<int:conflict>/", api.ConflictView.as_view(), name="conflict"),
    path("matches/<int:pk>/corrections/", api.CorrectionView.as_view(), name="correction"),
    path("matches/<int:pk>/codes/", api.CodeView.as_view(), name="code"),
    path("matches/<int:pk>/signatures/", api.SignView.as_view(), name="sign"),
    path("matches/<int:pk>/pin-unlock/", api.PinUnlockView.as_view(), name="pin-unlock"),
    path("matches/<int:pk>/countersign/", api.CountersignView.as_view(), name="countersign"),
    path("matches/<int:pk>/received/", api.ReceivedView.as_view(), name="received"),
    path("matches/<int:pk>/versions/", api.VersionListView.as_view(), name="versions"),
    path("verify/<str:digest>/", api.VerifyView.as_view(), name="verify"),
]
