"""Nothing an anonymous visitor can fetch carries a live table link: the public blank
súmula's QR code is the verification page; the organizer's and the match's referee's carry the table's
link. Read back as a phone reads it (zbarimg)."""
from __future__ import annotations

from django.test import Client

from tables import links as table_links

from .sumula_setup import *  # noqa: F401,F403
from .test_reachable_links import LAN_HOST, qr_codes


def blank(client, match):
    response = client.get(f"/sumulas/impressao/partida/{match.pk}/em-branco.pdf", HTTP_HOST=LAN_HOST)
    assert response.status_code == 200
    return response


def test_an_anonymous_or_outside_visitor_gets_the_verification_page_not_the_table_link(
        match, outsider, lan, tmp_path):
    link = table_links.ensure_links([match])[match.pk]
    for user in (None, outsider):
        client = Client()
        if user is not None:
            client.force_login(user)
        response = blank(client, match)
        assert "no-store" in response["Cache-Control"]
        codes = qr_codes(response.content, tmp_path)
        assert codes == {"http://127.0.0.2:8140/sumulas/verificar/"}, codes
        assert link.token.encode() not in response.content
        for image in tmp_path.glob("page*.png"):
            image.unlink()


def test_the_organizer_and_the_referee_get_the_table_link(match, organizer, referee, lan, tmp_path):
    link = table_links.ensure_links([match])[match.pk]
    for user in (organizer, referee):
        client = Client()
        client.force_login(user)
        assert f"http://127.0.0.2:8140/mesa/{link.token}/" in qr_codes(blank(client, match).content, tmp_path)
        for image in tmp_path.glob("page*.png"):
            image.unlink()
