"""A circuit made before organizations belongs to its organizer's organization (made by events 0004)."""
from django.db import migrations


def circuits_of_organizations(apps, schema_editor):
    Circuit = apps.get_model("tournaments", "Circuit")
    Member = apps.get_model("events", "OrganizationMember")
    for circuit in Circuit.objects.filter(organization__isnull=True):
        member = Member.objects.filter(user_id=circuit.organizer_id).order_by("pk").first()
        if member is not None:
            Circuit.objects.filter(pk=circuit.pk).update(organization_id=member.organization_id)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0032_organizations"),
        ("events", "0004_organizations_of_organizers"),
    ]

    operations = [migrations.RunPython(circuits_of_organizations, migrations.RunPython.noop)]
