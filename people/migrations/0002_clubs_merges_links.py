"""Clubs, memberships, federation numbers, merges and personal data links. The
free-text club stays in ``club`` until 0003 has turned it into clubs; 0004 drops it."""
import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("people", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Club",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120, verbose_name="name")),
                ("city", models.CharField(blank=True, max_length=120, verbose_name="city")),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="created at")),
                ("organizers", models.ManyToManyField(blank=True, help_text="The organizers who manage this club and its roster.", related_name="managed_clubs", to=settings.AUTH_USER_MODEL, verbose_name="organizers")),
            ],
            options={"verbose_name": "club", "verbose_name_plural": "clubs", "ordering": ["name", "city"],
                     "constraints": [models.UniqueConstraint(fields=("name", "city"), name="club_unique_name_per_city", violation_error_message="This city already has a club with this name.")]},
        ),
        migrations.AddField(
            model_name="player",
            name="club_ref",
            field=models.ForeignKey(blank=True, help_text="The club the player plays for now.", null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="players", to="people.club", verbose_name="club"),
        ),
        migrations.AddField(
            model_name="player",
            name="federation_number",
            field=models.CharField(blank=True, help_text="The player's number at their federation, if any; unique when given.", max_length=30, verbose_name="federation number"),
        ),
        migrations.AddField(
            model_name="player",
            name="merged_into",
            field=models.ForeignKey(blank=True, editable=False, help_text="A duplicate merged into another player (undone by unmerging).", null=True, on_delete=django.db.models.deletion.PROTECT, related_name="merged_duplicates", to="people.player", verbose_name="merged into"),
        ),
        migrations.AddField(
            model_name="player",
            name="anonymised_at",
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name="anonymised at"),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(condition=models.Q(("federation_number", ""), _negated=True), fields=("federation_number",), name="player_unique_federation_number", violation_error_message="Another player has this federation number."),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(condition=models.Q(("merged_into__isnull", True), models.Q(("merged_into", models.F("id")), _negated=True), _connector="OR"), name="player_not_merged_into_itself"),
        ),
        migrations.CreateModel(
            name="ClubMembership",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("since", models.DateField(blank=True, null=True, verbose_name="from")),
                ("until", models.DateField(blank=True, null=True, verbose_name="to")),
                ("club", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="memberships", to="people.club", verbose_name="club")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to="people.player", verbose_name="player")),
            ],
            options={"verbose_name": "club membership", "verbose_name_plural": "club memberships", "ordering": ["player", "since"],
                     "constraints": [
                         models.UniqueConstraint(condition=models.Q(("until__isnull", True)), fields=("player",), name="membership_one_open_per_player", violation_error_message="A player is in one club at a time."),
                         models.CheckConstraint(condition=models.Q(("since__isnull", True), ("until__isnull", True), ("until__gte", models.F("since")), _connector="OR"), name="membership_until_after_since", violation_error_message="A membership ends after it starts."),
                     ]},
        ),
        migrations.CreateModel(
            name="PlayerMerge",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("reason", models.CharField(max_length=300, verbose_name="reason")),
                ("moved", models.JSONField(default=dict, verbose_name="moved rows")),
                ("filled", models.JSONField(default=dict, verbose_name="filled fields")),
                ("merged_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="merged at")),
                ("undone_at", models.DateTimeField(blank=True, null=True, verbose_name="undone at")),
                ("duplicate", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="merges_as_duplicate", to="people.player", verbose_name="duplicate")),
                ("kept", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="merges_kept", to="people.player", verbose_name="kept")),
                ("merged_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="merged by")),
                ("undone_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="undone by")),
            ],
            options={"verbose_name": "player merge", "verbose_name_plural": "player merges", "ordering": ["-merged_at"],
                     "constraints": [
                         models.CheckConstraint(condition=models.Q(("kept", models.F("duplicate")), _negated=True), name="merge_two_players"),
                         models.CheckConstraint(condition=models.Q(models.Q(("undone_at__isnull", True), ("undone_by__isnull", True)), models.Q(("undone_at__isnull", False), ("undone_by__isnull", False)), _connector="OR"), name="merge_undone_by_whom_and_when"),
                     ]},
        ),
        migrations.CreateModel(
            name="DataAccessLink",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("token_hash", models.CharField(editable=False, max_length=64, unique=True, verbose_name="token (hash)")),
                ("issued_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="issued at")),
                ("expires_at", models.DateTimeField(verbose_name="expires at")),
                ("revoked_at", models.DateTimeField(blank=True, null=True, verbose_name="revoked at")),
                ("used_at", models.DateTimeField(blank=True, null=True, verbose_name="last used at")),
                ("issued_by", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="issued by")),
                ("player", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="data_links", to="people.player", verbose_name="player")),
            ],
            options={"verbose_name": "personal data link", "verbose_name_plural": "personal data links", "ordering": ["-issued_at"]},
        ),
    ]
