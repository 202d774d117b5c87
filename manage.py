#!/usr/bin/env python
"""Django's command-line utility for administrative tasks.

``manage.py check_hand FILE`` (that plain form only) runs :func:`referee.engine.cli.main` without
starting Django: Django's start-up costs more CPU than judging 20,000 hands (benchmarks/engine.py).
Its messages come from the project's catalog in the language of ``LANGUAGE_CODE`` (config/settings.py,
checked by tests/referee/test_check_hand_cli.py); any other form of the command goes to Django.
"""
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
# settings.LANGUAGE_CODE as a locale name, and settings.LOCALE_PATHS[0]: reading the settings
# would import Django.
CHECK_HAND_LOCALE = "pt_BR"
LOCALE_DIR = ROOT / "locale"


def plain_check_hand(argv: list[str]) -> bool:
    """Whether ``argv`` is ``manage.py check_hand FILE`` with the default settings and colours."""
    return (
        len(argv) == 3 and argv[1] == "check_hand" and (argv[2] == "-" or not argv[2].startswith("-"))
        and os.environ.get("DJANGO_SETTINGS_MODULE", "config.settings") == "config.settings"
        and "DJANGO_COLORS" not in os.environ
    )


def check_hand(path: str) -> int:
    from referee.engine.cli import main as check_hand_main

    catalog = []

    def gettext(message: str) -> str:
        """The catalog is read at the first message (about 10 ms for the whole project's catalog): a run
        whose every report is valid prints none (speed)."""
        if not catalog:
            import gettext as gettext_module

            catalog.append(gettext_module.translation("django", str(LOCALE_DIR), languages=[CHECK_HAND_LOCALE],
                                                      fallback=True).gettext)
        return catalog[0](message)

    return check_hand_main(path, gettext)


def main() -> None:
    if plain_check_hand(sys.argv):
        sys.exit(check_hand(sys.argv[2]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
