from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "public"
    verbose_name = _("Public pages")
