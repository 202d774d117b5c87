"""Pages of the scoring app: match entry, signing, verification (mounted at /sumulas/)."""
app_name = "scoring"
urlpatterns: list = []
