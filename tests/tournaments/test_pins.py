"""Players' PINs without the admin: issued at registration (form and CSV), printed on the
pair cards, reset by the organizer, changed by the player at the table with the current one; hashed."""
from __future__ import annotations

import re
import subprocess

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring import services as scoring
from tables import links as table_links
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments.models import Pair, Player


def shown(client_response) -> list[str]:
    return [str(m) for m in client_response.context["messages"]] if client_response.context else []


def test_registration_by_form_issues_pins_shown_once_and_stored_hashed(client, org, t):
    client.force_login(org)
    response = client.post(reverse("tournaments:register", kwargs={"slug": t.slug}),
                           {"name": "Os Zapeiros", "first_name": "Ana", "second_name": "Beto"}, follow=True)
    text = " ".join(str(m) for m in response.context["messages"])
    found = dict(re.findall(r"(Ana|Beto): (\d{6})", text))
    assert set(found) == {"Ana", "Beto"}
    pair = Pair.objects.get(name="Os Zapeiros")
    for player in pair.players:
        assert player.pin_hash and player.pin_hash != found[player.name] and "$" in player.pin_hash
        assert player.check_pin(found[player.name])


def test_csv_import_issues_pins_and_the_pair_cards_print_them(client, org, t):
    client.force_login(org)
    csv = "pair,player1,player2\nOs Zapeiros,Ana,Beto\nCopas,Caio,Duda\n"
    response = client.post(reverse("tournaments:import", kwargs={"slug": t.slug}),
                           {"mode": "all_or_nothing", "file": SimpleUploadedFile("p.csv", csv.encode())}, follow=True)
    assert Pair.objects.filter(tournament=t).count() == 2, response.content.decode()[:2000]
    assert all(p.has_pin for p in Player.objects.all())
    pdf = client.post(reverse("tournaments:pair-cards", kwargs={"slug": t.slug}))
    assert pdf["Content-Type"] == "application/pdf"
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf.content, capture_output=True).stdout.decode()
    for player in Player.objects.all():
        pin = re.search(re.escape(player.name) + r"\s+(\d{6})", text).group(1)
        assert player.check_pin(pin)  # the printed PIN is the one issued at import
    assert "Os Zapeiros" in text and "Copas" in text
    renewed = client.post(reverse("tournaments:pair-cards", kwargs={"slug": t.slug}), {"renew": "all"})
    text2 = subprocess.run(["pdftotext", "-layout", "-", "-"], input=renewed.content, capture_output=True).stdout.decode()
    ana = Player.objects.get(name="Ana")
    assert ana.check_pin(re.search(r"Ana\s+(\d{6})", text2).group(1))


def test_the_organizer_resets_a_pin_and_nobody_else(client, org, t):
    pair = f.pairs(t, 1)[0]
    player = pair.first_player
    other = f.user("other")
    client.force_login(other)
    assert client.post(reverse("tournaments:reset-pin", kwargs={"slug": t.slug, "pk": player.pk})).status_code == 403
    client.force_login(org)
    response = client.post(reverse("tournaments:reset-pin", kwargs={"slug": t.slug, "pk": player.pk}), follow=True)
    pin = re.search(r": (\d{6})", " ".join(str(m) for m in response.context["messages"])).group(1)
    player.refresh_from_db()
    assert player.check_pin(pin)


def test_a_player_changes_their_own_pin_at_the_table_with_the_current_one(org, t):
    a, b = f.pairs(t, 2)
    for player in (*a.players, *b.players):
        player.set_pin("1234")
        player.save()
    match = scoring.create_match(pair_a=a, pair_b=b, tournament=t, table=1, by=org)
    link = table_links.ensure_links([match])[match.pk]
    url = f"/mesa/{link.token}/pin/"
    client = Client()
    player = a.first_player
    wrong = client.post(url, {"player": player.pk, "current": "9999", "new": "246810"}, content_type="application/json")
    assert wrong.status_code == 403
    bad = client.post(url, {"player": player.pk, "current": "1234", "new": "12"}, content_type="application/json")
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "new"
    stranger = f.pairs(t, 1)[0].first_player
    assert client.post(url, {"player": stranger.pk, "current": "1234", "new": "246810"},
                       content_type="application/json").status_code == 403
    ok = client.post(url, {"player": player.pk, "current": "1234", "new": "246810"}, content_type="application/json")
    assert ok.status_code == 200
    player.refresh_from_db()
    assert player.check_pin("246810") and not player.check_pin("1234")


def test_every_form_and_doc_says_the_same_pin_length():
    """Issued PINs have PIN_DIGITS; a PIN the player chooses has PIN_MIN to PIN_MAX digits: the table's form,
    the signing field and the docs say so (they once said 4 to 8, 4 to 12 and 6)."""
    from pathlib import Path

    from django.utils import translation

    from tournaments import pins

    root = Path(__file__).resolve().parents[2]
    assert pins.PIN_DIGITS == 6 and (pins.PIN_MIN, pins.PIN_MAX) == (4, 8)
    assert pins.PIN_RE.match("1234") and pins.PIN_RE.match("12345678") and not pins.PIN_RE.match("123456789")
    table = (root / "templates/referee/table.html").read_text()
    assert 'New PIN (4 to 8 digits)' in table and 'pattern="[0-9]{4,8}"' in table
    with translation.override("pt-br"):
        assert translation.gettext("New PIN (4 to 8 digits)") == "PIN novo (4 a 8 dígitos)"
        assert translation.gettext("A PIN has 4 to 8 digits.") == "Um PIN tem de 4 a 8 dígitos."
    assert 'name="pin" inputmode="numeric" autocomplete="off" maxlength="8"' in (
        root / "templates/scoring/_signing.html").read_text()
    docs = (root / "docs/people.md").read_text() + (root / "docs/security.md").read_text()
    assert "4 to 12" not in docs and "6 digits when issued" in docs and "4 to 8" in docs
