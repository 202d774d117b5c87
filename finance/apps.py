from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FinanceConfig(AppConfig):
    """An event's money (docs/money.md): the entry fees charged by static Pix, who paid and who was
    refunded (append-only), the prize table and the prizes paid. Above tournaments: it reads the
    pairs and the final standings, and nothing below reads it."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "finance"
    verbose_name = _("Fees and prizes")
