"""The free-text club of every player becomes a ``Club``: spellings that differ only in
case, accents or spaces are one club (the first spelling met, by player id, names it); each player
gets an open membership of unknown start. Backwards: each player's text is their club's name again,
and the clubs and memberships go."""
import unicodedata

from django.db import migrations


def _plain(name):
    decomposed = unicodedata.normalize("NFKD", name)
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).casefold().split())


def forwards(apps, schema_editor):
    Player = apps.get_model("people", "Player")
    Club = apps.get_model("people", "Club")
    ClubMembership = apps.get_model("people", "ClubMembership")
    clubs = {}
    for player in Player.objects.exclude(club="").order_by("pk").iterator():
        text = " ".join(player.club.split())
        if not text:
            continue
        key = _plain(text)
        if key not in clubs:
            clubs[key] = Club.objects.create(name=text[:120])
        Player.objects.filter(pk=player.pk).update(club_ref=clubs[key])
        ClubMembership.objects.create(player=player, club=clubs[key])


def backwards(apps, schema_editor):
    Player = apps.get_model("people", "Player")
    Club = apps.get_model("people", "Club")
    ClubMembership = apps.get_model("people", "ClubMembership")
    for club in Club.objects.all().iterator():
        Player.objects.filter(club_ref=club).update(club=club.name[:120])
    Player.objects.update(club_ref=None)
    ClubMembership.objects.all().delete()
    Club.objects.all().delete()


class Migration(migrations.Migration):

    dependencies = [("people", "0002_clubs_merges_links")]

    operations = [migrations.RunPython(forwards, backwards)]
