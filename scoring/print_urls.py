"""Printing pages: blank and filled súmulas, whole rounds (mounted at /sumulas/impressao/)."""
app_name = "printing"
urlpatterns: list = []
