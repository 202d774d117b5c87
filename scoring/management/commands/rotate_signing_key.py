"""``manage.py rotate_signing_key``: a new Ed25519 key for the súmulas' server seals
(scoring/integrity.py), the old one kept verifiable.

- **Key file** (no ``SUMULA_SIGNING_KEY``): writes the new key to the file and appends the old public
  key to the ``.old`` file beside it; restart every process that seals (web, workers) afterwards.
- **Key in the environment**: nothing is written; the command prints a new ``SUMULA_SIGNING_KEY`` and
  the ``SUMULA_SIGNING_OLD_KEYS`` to set on every machine (the current public key appended), then
  restart them all.

Either way, seals made with the old key still hold (``verify_sumulas``), and the new key's id is recorded
in the database as the current one: a process started with the old key fails ``manage.py check``
(``scoring.E004``). Only the tables' owner may record it: the command runs with the owner's
``DATABASE_URL`` (the app's role is refused before any key changes).
"""
import base64

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from scoring import integrity


class Command(BaseCommand):
    help = "Rotate the súmulas' seal key; old seals stay verifiable."

    def handle(self, *args, **options):
        if not integrity.may_record_keys():  # before any key changes: a rotation the database does not know splits
            raise CommandError("This database role may not record the seal key in use (the app's role: "
                               "scripts/postgres-grants.sql). Run the command as the tables' owner: "
                               "DATABASE_URL=$MIGRATE_DATABASE_URL python manage.py rotate_signing_key")
        old_id = integrity.key_id()
        if getattr(settings, "SUMULA_SIGNING_KEY", ""):
            private = Ed25519PrivateKey.generate()
            new = base64.b64encode(private.private_bytes_raw()).decode("ascii")
            integrity.record_rotation(private.public_key())  # processes still on the old key: scoring.E004
            old_keys = [*getattr(settings, "SUMULA_SIGNING_OLD_KEYS", []), integrity.public_key_b64()]
            self.stdout.write("The key comes from the environment: set these on every machine, then restart them:")
            self.stdout.write(f"SUMULA_SIGNING_KEY={new}")
            self.stdout.write(f"SUMULA_SIGNING_OLD_KEYS={','.join(old_keys)}")
            self.stdout.write(f"(old key id {old_id}; keep SUMULA_SIGNING_OLD_KEYS for as long as its seals matter)")
            return
        old_id, new_id = integrity.rotate()
        self.stdout.write(f"New seal key {new_id} in {settings.SUMULA_SIGNING_KEY_FILE}; the old key {old_id} is kept in "
                          f"{integrity.old_keys_file()}. Restart the web processes and workers.")
