"""Every account that organized before organizations gets one of its own (named after it, the account its
administrator) owning its tournaments; organizer accounts stop being staff (staff granted site-wide power:
docs/security.md, "Many clubs on one site"). Superusers keep staff; an organizer keeps the permission to
create tournaments."""
from django.db import migrations
from django.db.models import Q
from django.utils.text import slugify


def organizations_of_organizers(apps, schema_editor):
    User = apps.get_model("auth", "User")
    Permission = apps.get_model("auth", "Permission")
    Tournament = apps.get_model("events", "Tournament")
    Organization = apps.get_model("events", "Organization")
    Member = apps.get_model("events", "OrganizationMember")
    add_tournament = Permission.objects.filter(codename="add_tournament", content_type__app_label="events").first()
    organizers = User.objects.filter(
        Q(pk__in=Tournament.objects.values("organizer_id")) | Q(is_staff=True, is_superuser=False)
        | Q(user_permissions__codename="add_tournament")).distinct()
    taken = set(Organization.objects.values_list("slug", flat=True))
    for user in organizers.order_by("pk"):
        name = (f"{user.first_name} {user.last_name}".strip() or user.username)[:120]
        base = slugify(user.username)[:120] or f"org-{user.pk}"
        slug, n = base, 1
        while slug in taken:
            n += 1
            slug = f"{base}-{n}"
        taken.add(slug)
        organization = Organization.objects.create(name=name, slug=slug, kind="club")
        Member.objects.create(organization=organization, user=user, role="admin")
        Tournament.objects.filter(organizer=user, organization__isnull=True).update(organization=organization)
        if not user.is_superuser:
            if add_tournament is not None:
                user.user_permissions.add(add_tournament)
            if user.is_staff:
                User.objects.filter(pk=user.pk).update(is_staff=False)


class Migration(migrations.Migration):

    dependencies = [
        ("events", "0003_organizations"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [migrations.RunPython(organizations_of_organizers, migrations.RunPython.noop)]
