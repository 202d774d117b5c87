"""``manage.py backup DEST --keys-to KEYS [--database-dump FILE]``: the database, the generated files and,
apart, the seal keys (scoring/backups.py; README "Backups")."""
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring import backups


class Command(BaseCommand):
    help = "Back up the database and the generated files to DEST, and the keys apart (--keys-to)."

    def add_arguments(self, parser):
        parser.add_argument("dest", help="A new folder for this backup.")
        parser.add_argument("--keys-to", help="Where the keys go: a folder apart from the database's copies "
                                              "(another disk, a password manager).")
        parser.add_argument("--keys-beside-data", action="store_true",
                            help="Allow --keys-to in DEST's own folder (default without --keys-to: DEST.keys).")
        parser.add_argument("--database-dump", help="A pg_dump --format=custom file made by the server's own "
                                                    "pg_dump (compose's dump service), moved into the backup.")

    def handle(self, *args, **options):
        dest = Path(options["dest"])
        if options["keys_to"]:
            keys_to = Path(options["keys_to"])
        elif options["keys_beside_data"]:
            keys_to = dest.with_name(dest.name + ".keys")
        else:
            raise CommandError("name where the keys go: --keys-to PATH, a folder apart from the backups (another "
                               "disk, a password manager); or --keys-beside-data for DEST.keys beside DEST")
        try:
            manifest = backups.backup(dest, keys_to, keys_beside_data=options["keys_beside_data"],
                                      database_dump=Path(options["database_dump"]) if options["database_dump"] else None)
        except backups.BackupError as problem:
            raise CommandError(str(problem)) from None
        self.stdout.write(f"backup: {dest} ({manifest['engine']} database, {len(manifest['files'])} files, "
                          f"{manifest['sealed_versions']} sealed súmula versions)")
        self.stdout.write(f"keys: {keys_to} ({', '.join(manifest['keys'])})")
        self.stderr.write(
            f"WARNING: {keys_to} holds the súmulas' seal key. Store it apart from the database's backups "
            "(another medium, a password manager): whoever has both can forge a seal. Without it a restored "
            "site cannot verify its súmulas.")
