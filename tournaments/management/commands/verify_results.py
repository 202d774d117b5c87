"""``manage.py verify_results``: every tournament's official results held to the sealed súmulas and the
audit log (tournaments/result_seals.py), and the numbers derived from them: the rating history and the
circuit placings, derived again and compared (tournaments/ranking_checks.py); the sibling of
``verify_sumulas``. Prints one line per problem naming the match (a rating: and the player; a circuit:
its stage and pair), then which tournaments' standings count a result that does not hold; exits with
status 1 when anything fails."""
from django.core.management.base import BaseCommand, CommandError

from tournaments import ranking_checks, result_seals
from tournaments.models import Result, Tournament


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
        lag, rated = ranking_checks.rating_lag(), {}
        if lag and ranking_checks.ratings_pending():  # a decision's sync not run yet: nothing to compare
            self.stdout.write(f"ratings: not checked, a sync is due ({lag}): run manage.py sync_ratings, "
                              "then check again")
        elif lag:
            rated = {0: [f"not in step with the official results and no change is marked ({lag})"]}
            self.stdout.write(f"ratings: {rated[0][0]}")
        else:
            rated = ranking_checks.rating_problems(tournament_id)
            for match_id, problems in rated.items():
                for problem in problems:
                    self.stdout.write(f"match {match_id}: rating: {problem}")
        placed = ranking_checks.circuit_problems(tournament_id)
        for problem in placed:
            self.stdout.write(problem)
        self.stdout.write(f"checked: {checked}; altered: {len(found)}"
                          + (f"; ratings differ: {len(rated)} match(es)" if rated else "")
                          + (f"; circuit placings differ: {len(placed)}" if placed else ""))
        if found:
            raise CommandError(f"{len(found)} official result(s) differ from what was sealed.")
        if rated or placed:
            raise CommandError("Ratings or circuit placings differ from the official results.")
