"""``manage.py restore SOURCE [--keys KEYS] [--replace | --database-restored]``: a backup of ``manage.py backup`` into this
site's database and files, the keys put in place, then every súmula verified (scoring/backups.py)."""
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from scoring import backups, integrity


class Command(BaseCommand):
    help = "Restore a backup (manage.py backup) into this site's database, then verify every súmula."

    def add_arguments(self, parser):
        parser.add_argument("source", help="The backup's folder.")
        parser.add_argument("--keys", help="The keys' folder (the backup's DEST.keys). Needed on a new machine.")
        parser.add_argument("--replace", action="store_true",
                            help="Replace a database that already has tables (stop the site first).")
        parser.add_argument("--database-restored", action="store_true",
                            help="The database is already restored from SOURCE's database.dump by the server's "
                                 "own pg_restore (as the owner role): restore the rest and verify.")

    def handle(self, *args, **options):
        keys = Path(options["keys"]) if options["keys"] else None
        try:
            manifest = backups.restore(Path(options["source"]), keys, replace=options["replace"],
                                       database_restored=options["database_restored"])
            unknown = backups.seal_keys_present(manifest)
        except (backups.BackupError, integrity.SigningKeyMissing) as problem:
            raise CommandError(str(problem)) from None
        self.stdout.write(f"restored: {options['source']} (made {manifest['made_at']})")
        if unknown:
            raise CommandError(
                f"súmulas are sealed with key(s) {', '.join(unknown)}, which this machine does not have: restore "
                "with --keys (the backup's keys folder) or add their public keys to SUMULA_SIGNING_OLD_KEYS.")
        call_command("migrate", interactive=False, verbosity=0)  # a backup of an older release
        call_command("verify_sumulas", stdout=self.stdout)
