"""``manage.py serve_prepare``: what ``scripts/serve`` does before it starts the pieces, in one process
(each Django start costs ~1 s of CPU): ``migrate`` (unless ``--no-migrate``), then ``collectstatic``
only when the static files changed (``--static``: collecting and compressing every file
took 1-2 minutes even with nothing new, most of a restart). The stamp is a SHA-256 over every file the static finders
list (the apps' ``static/`` folders and the installed packages': their path, size and modification
time) and ``STATIC_ROOT`` itself, written to ``STATIC_ROOT/.collected`` after a collection that
succeeded; the next start compares and skips. ``--force`` collects anyway."""
from __future__ import annotations

import hashlib
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.management import call_command
from django.core.management.base import BaseCommand

STAMP_NAME = ".collected"


def static_stamp() -> str:
    """What the collected files are made of: every source file's path, size and modification time."""
    entries = []
    for finder in finders.get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            source = Path(storage.path(path))
            info = source.stat()
            entries.append(f"{path}\0{source}\0{info.st_size}\0{info.st_mtime_ns}")
    entries.sort()
    digest = hashlib.sha256(str(settings.STATIC_ROOT).encode())
    for entry in entries:
        digest.update(entry.encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def stamp_file() -> Path:
    return Path(settings.STATIC_ROOT) / STAMP_NAME


def up_to_date() -> bool:
    try:
        return stamp_file().read_text().strip() == static_stamp()
    except OSError:
        return False


class Command(BaseCommand):
    help = ("Migrate, run the system checks, and collect the static files only when they changed since the last "
            "collection (a stamp).")
    # the checks run after migrate (below): on a first start the tables they read (scoring.E003, E004) exist by then
    requires_system_checks: list = []

    def add_arguments(self, parser):
        parser.add_argument("--no-migrate", action="store_true", help="Do not migrate (another machine does).")
        parser.add_argument("--static", action="store_true", help="Collect the static files if they changed.")
        parser.add_argument("--force", action="store_true", help="With --static: collect even when nothing changed.")

    def handle(self, *args, **options):
        if not options["no_migrate"]:
            call_command("migrate", interactive=False, verbosity=max(options["verbosity"] - 1, 0))
        self.check()  # after migrate: a problem stops the start (SystemCheckError), as `manage.py check` would
        if options["static"] or options["force"]:
            self.collect(options)

    def collect(self, options):
        stamp = static_stamp()
        if not options["force"] and up_to_date():
            if options["verbosity"] >= 1:
                self.stdout.write("static files unchanged: not collected")
            return
        stamp_file().parent.mkdir(parents=True, exist_ok=True)
        stamp_file().unlink(missing_ok=True)  # a collection cut short must not look finished
        call_command("collectstatic", interactive=False, verbosity=max(options["verbosity"] - 1, 0))
        stamp_file().write_text(stamp + "\n")
        if options["verbosity"] >= 1:
            self.stdout.write("static files collected")
