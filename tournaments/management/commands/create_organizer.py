"""``manage.py create_organizer``: the first account of a production site, an organizer who
creates and runs tournaments and reaches the admin for them (staff, with every permission of the
tournaments app, as the demo's ``organizador``); ``--superuser`` makes a site operator instead.

Interactive: asks for the login, the name, the e-mail and the password (twice, held to the password
validators). Non-interactive (``--no-input``, scripts and containers): ``--username`` and the password from
an environment variable (``--password-env``, ``TRUCO_ORGANIZER_PASSWORD`` by default), never from the
command line, which other users of the machine can read. The account is made by
``tournaments.accounts.create_organizer``, as from the site's page "Contas"; ``--manager``
lets it create organizer accounts from that page too."""
from __future__ import annotations

import getpass
import os

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from config.errors import ServiceError
from tournaments import accounts


class Command(BaseCommand):
    help = "Create an organizer account (staff, with the tournaments app's permissions)."

    def add_arguments(self, parser):
        parser.add_argument("--username", help="The login.")
        parser.add_argument("--name", default="", help="First and last name, e.g. 'Ana Souza'.")
        parser.add_argument("--email", default="", help="Where PIN lockout notices go.")
        parser.add_argument("--superuser", action="store_true", help="A site operator (every permission).")
        parser.add_argument("--manager", action="store_true",
                            help="May also create organizer accounts from the site's page (auth.add_user).")
        parser.add_argument("--no-input", "--noinput", dest="interactive", action="store_false",
                            help="Ask nothing: --username and the password from --password-env.")
        parser.add_argument("--password-env", default="TRUCO_ORGANIZER_PASSWORD",
                            help="The environment variable holding the password (default TRUCO_ORGANIZER_PASSWORD).")

    def handle(self, *args, **options):
        User = get_user_model()
        username, name, email = options["username"], options["name"], options["email"]
        if options["interactive"]:
            username = username or self.ask("Login: ")
            name = name or self.ask("Name (optional): ", required=False)
            email = email or self.ask("E-mail (optional): ", required=False)
        if not username:
            raise CommandError("--username is required with --no-input")
        if User.objects.filter(username=username).exists():
            raise CommandError(f"the login {username!r} is taken: choose another (or change its password: "
                               f"python manage.py changepassword {username})")
        first, _, last = name.strip().partition(" ")
        draft = User(username=username, email=email, first_name=first[:150], last_name=last[:150])
        password = self.password(options, draft)
        try:
            accounts.create_organizer(username=username, name=name, email=email, password=password,
                                      superuser=options["superuser"], manager=options["manager"])
        except ServiceError as error:
            prefix = "the password is refused: " if error.field == "password" else ""
            raise CommandError(prefix + error.message) from None
        kind = "site operator (superuser)" if options["superuser"] else "organizer"
        self.stdout.write(f"created {kind} {username!r}: log in at /entrar/ (and /admin/)")

    def ask(self, prompt: str, required: bool = True) -> str:
        while True:
            answer = input(prompt).strip()
            if answer or not required:
                return answer
            self.stderr.write("required")

    def password(self, options, user) -> str:
        if not options["interactive"]:
            password = os.environ.get(options["password_env"], "")
            if not password:
                raise CommandError(f"set the password in the environment variable {options['password_env']} "
                                   "(never on the command line)")
            return password
        while True:
            first = getpass.getpass("Password: ")
            if first != getpass.getpass("Password (again): "):
                self.stderr.write("the two passwords differ; again")
                continue
            try:
                validate_password(first, user)
            except ValidationError as problems:
                self.stderr.write(" ".join(problems.messages))
                continue
            return first
