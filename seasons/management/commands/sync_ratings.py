"""``manage.py sync_ratings``: the rating history brought in step with the official results
(seasons/services/ratings.py). By default only the matches marked changed are compared;
``--full`` compares every official result on the site with what was rated (a change that did
not go through a service, a data fix; the periodic task ``seasons.check_ratings`` does the
same). Prints how many matches were rated."""
from django.core.management.base import BaseCommand

from seasons.services import ratings


class Command(BaseCommand):
    help = "Bring the ratings in step with the official results (--full: compare every result)."

    def add_arguments(self, parser):
        parser.add_argument("--full", action="store_true",
                            help="Compare every official result with what was rated, not only the marked ones.")

    def handle(self, *args, **options):
        rated = ratings.sync_ratings(full=options["full"])
        self.stdout.write(f"rated: {rated}")
