from django.apps import AppConfig


class PublicConfig(AppConfig):
    """The public pages: no models, nothing registered (the apps above add their rows to the change marker
    with ``freshness.register_source``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "public"
