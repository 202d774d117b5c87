"""REST endpoints of the scoring app (mounted at /api/scoring/)."""
app_name = "scoring-api"
urlpatterns: list = []
