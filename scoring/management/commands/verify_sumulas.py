"""``manage.py verify_sumulas``: rebuild every signed or received súmula from its rows and check its
stored version, digest, server seal and signatures (scoring/row_check.py). Prints one line per
problem naming the match and what differs; exits with status 1 when any súmula fails."""
from django.core.management.base import BaseCommand, CommandError

from scoring import integrity, row_check


class Command(BaseCommand):
    help = "Check every signed or received súmula against its rows, digest and the server's seal."

    def add_arguments(self, parser):
        parser.add_argument("match", nargs="*", type=int, help="Only these match ids.")

    def handle(self, *args, **options):
        problem = integrity.key_missing()
        if problem:  # a restore without the keys: say so, instead of "altered" for every súmula
            raise CommandError(problem)
        matches = row_check.checked_matches()
        if options["match"]:
            matches = matches.filter(pk__in=options["match"])
        checked = matches.count()
        found = row_check.check_all(matches)
        for match_id, problems in found.items():
            for problem in problems:
                self.stdout.write(f"match {match_id}: {problem}")
        self.stdout.write(f"checked: {checked}; altered: {len(found)}")
        if found:
            raise CommandError(f"{len(found)} súmula(s) differ from what was signed.")
