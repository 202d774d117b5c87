"""Joins the two branches of referee's claims (the table link's claims and appeals; rejected claims).
It replaces the merge first recorded under another name, so a site that applied that one skips it."""

from django.db import migrations


class Migration(migrations.Migration):

    replaces = [("referee", "0006_merge_issue21")]

    dependencies = [
        ('referee', '0005_claim_and_appeal_table_link'),
        ('referee', '0005_claim_rejected'),
    ]

    operations = [
    ]
