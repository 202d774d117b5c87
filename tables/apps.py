from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TablesConfig(AppConfig):
    """The table channel (docs/architecture.md): how a table with no account reaches its súmula. Its
    links and the cards of the physical tables (the tokens printed as QR codes), a phone's repeated
    writes answered once (idempotency) and the conflicts between two phones of one table."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "tables"
    verbose_name = _("Table channel")
