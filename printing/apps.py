from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    """Printing (docs/printing.md, docs/architecture.md): a match's súmula PDFs, print jobs rendered by a
    worker, a tournament's and a round's printing pages and the round's table cards. Above
    ``tournaments``: a round's print reads its rounds and the address its cards were printed from."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "printing"
    verbose_name = _("Printing")

    def ready(self) -> None:
        from . import checks, upkeep  # noqa: F401 - the stall limit's system check; the print job file cleanup
