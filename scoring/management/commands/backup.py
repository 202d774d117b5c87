"""``manage.py backup DEST [--keys-to KEYS]``: the database, the generated files and, apart, the seal
keys (scoring/backups.py; README "Backups")."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring import backups


class Command(BaseCommand):
    help = "Back up the database and the generated files to DEST, and the seal keys apart (DEST.keys)."

    def add_arguments(self, parser):
        parser.add_argument("dest", help="A new folder for this backup.")
        parser.add_argument("--keys-to", help="Where the keys go (default: DEST.keys, beside DEST). Keep them "
                                              "apart from the database's copies.")

    def handle(self, *args, **options):
        dest = Path(options["dest"])
        keys_to = Path(options["keys_to"]) if options["keys_to"] else dest.with_name(dest.name + ".keys")
        try:
            manifest = backups.backup(dest, keys_to)
        except backups.BackupError as problem:
            raise CommandError(str(problem)) from None
        self.stdout.write(f"backup: {dest} ({manifest['engine']} database, {len(manifest['files'])} files, "
                          f"{manifest['sealed_versions']} sealed súmula versions)")
        self.stdout.write(f"keys: {keys_to} ({', '.join(manifest['keys'])})")
        self.stderr.write(
            f"WARNING: {keys_to} holds the súmulas' seal key. Store it apart from the database's backups "
            "(another medium, a password manager): whoever has both can forge a seal. Without it a restored "
            "site cannot verify its súmulas.")
