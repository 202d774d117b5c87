"""``manage.py check_hand FILE``: referee hand reports from a file or standard input.

This module owns the Django side of the command: its registration, options and ``call_command``
use. The work — input forms, output, exit status, documented in :mod:`referee.engine.cli` — is
:func:`referee.engine.cli.check_stream`, the same code ``manage.py check_hand FILE`` runs before
Django starts (``manage.py`` takes that plain form straight to :func:`referee.engine.cli.main`,
saving Django's start-up; every other form, ``--help``, ``--settings``, ``-v`` …, comes here).
Messages go through Django's translation (Brazilian Portuguese by default, ``LANGUAGE_CODE``).

Exit status: 0 -- every report is valid; 1 -- at least one is not; 2 -- the input could not be
read, or an internal error; 141 -- standard output was closed early (``| head``).
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.utils import translation
from django.utils.translation import gettext as _

from referee.engine import check_report
from referee.engine.cli import CheckHandError, check_stream, input_lines, localized


class Command(BaseCommand):
    help = (
        "Referee hand reports: FILE (or - for standard input) holds one report (a JSON "
        "object), a JSON list of reports, or JSON Lines. Prints one verdict per report, "
        "one compact JSON object per line, in input order. Exit status: 0 if every "
        "report is valid, 1 if any is not, 2 if the input cannot be read."
    )
    # The command only reads its input and the engine: no need to check the project.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "file", metavar="FILE",
            help=_("File with the hand reports (JSON or JSON Lines), or - for standard input."),
        )
        parser.add_argument(
            "--lang", choices=("pt", "en"), default="pt",
            help=_("Language of the violations and notes in the verdicts: pt (default) or en."),
        )

    def handle(self, *args, **options) -> None:
        try:
            lines = input_lines(options["file"], _)
            write, flush = self._writer()
            # check_report is looked up here, at each call: the tests replace it in this module.
            check = check_report if options["lang"] == "pt" else localized(check_report, options["lang"])
            # the command's own words (a JSON error) in the language of the verdicts too
            with translation.override("en" if options["lang"] == "en" else translation.get_language()):
                check_stream(lines, write, flush, check, _)
        except CheckHandError as error:
            raise CommandError(str(error), returncode=error.returncode) from None

    def _writer(self) -> tuple[Callable[[bytes], Any], Callable[[], Any]]:
        """A (write, flush) pair that puts UTF-8 on stdout whatever the locale says."""
        # OutputWrapper forwards unknown attributes to the wrapped stream.
        buffer = getattr(self.stdout, "buffer", None)
        if buffer is not None:
            self.stdout.flush()
            return buffer.write, buffer.flush

        def write_text(data: bytes) -> None:
            self.stdout.write(data.decode("utf-8"), ending="")

        return write_text, self.stdout.flush
