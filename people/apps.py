from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """Who plays, across tournaments and organizers (docs/people.md): players, clubs, merges, personal data."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "people"
