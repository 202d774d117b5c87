"""``manage.py verify_results``: every tournament's official results held to the sealed súmulas and the
audit log (tournaments/result_seals.py), and the numbers derived from them: the rating history and the
circuit placings, derived again and compared (the seasons app's ``ranking_checks``, through
``services.season_hooks.derived_problems``); the sibling of
``verify_sumulas``. Prints one line per problem naming the match (a rating: and the player; a circuit:
its stage and pair), then which tournaments' standings count a result that does not hold; exits with
status 1 when anything fails."""
from django.core.management.base import BaseCommand, CommandError

from tournaments import result_seals
from tournaments.models import Result, Tournament
from tournaments.services import season_hooks


class Command(BaseCommand):
    help = ("Check every official result against its seal, the sealed súmula and the audit log, and the "
            "ratings and circuit placings against the official results.")

    def add_arguments(self, parser):
        parser.add_argument("--tournament", help="Only this tournament (its slug).")

    def handle(self, *args, **options):
        tournament_id = None
        if options["tournament"]:
            tournament = Tournament.objects.filter(slug=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"No tournament with the slug {options['tournament']!r}.")
            tournament_id = tournament.pk
        results = Result.objects.all() if tournament_id is None else Result.objects.filter(tournament_id=tournament_id)
        checked = results.count()
        found = result_seals.check_all(tournament_id)
        for match_id, problems in found.items():
            for problem in problems:
                self.stdout.write(f"match {match_id}: result: {problem}")
        for slug in (Tournament.objects.filter(matches__pk__in=list(found)).distinct().order_by("slug")
                     .values_list("slug", flat=True)):
            self.stdout.write(f"tournament {slug}: its standings count results that do not hold")
        derived = season_hooks.derived_problems(tournament_id, self.stdout.write)
        self.stdout.write(f"checked: {checked}; altered: {len(found)}" + "".join(f"; {part}" for part in derived))
        if found:
            raise CommandError(f"{len(found)} official result(s) differ from what was sealed.")
        if derived:
            raise CommandError("Ratings or circuit placings differ from the official results.")
