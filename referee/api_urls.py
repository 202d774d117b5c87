"""REST endpoints of the referee app (mounted under /api/referee/)."""
urlpatterns: list = []
