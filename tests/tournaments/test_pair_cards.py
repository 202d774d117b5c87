"""The pair cards as a player uses them: one half per player, cut apart, with that player's PIN only and
nothing printed over it; a QR code read from a cheap print (100 dpi) that opens the pair's page on the
address the organizer printed from — the same base as the table cards' and the call's e-mail."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
from html import unescape

import pytest
from django.urls import reverse
from pypdf import PdfReader

from tournaments import links
from tournaments.models import Pair, Player
from tables.models import LinkAddress

pytestmark = pytest.mark.django_db

HOST = "192.168.0.10:8140"  # the organizer's laptop on the club's Wi-Fi
NAMES = ["Os Zapeiros", "Bando do Zap", "Dupla Ana e Bia", "Copas", "Espadilha Futebol Clube", "Sete Belo"]


def _tools():
    if not all(shutil.which(tool) for tool in ("pdftoppm", "pdftotext", "zbarimg")):
        pytest.skip("poppler-utils or zbar-tools is not installed")


@pytest.fixture
def venue(settings, t):
    settings.ALLOWED_HOSTS = ["testserver", "192.168.0.10"]
    settings.SITE_URL_SET = False
    pairs = []
    for n, name in enumerate(NAMES):
        a = Player.objects.create(name="Maximiliano Albuquerque de Souza" if n == 4 else f"Ana {n}")
        b = Player.objects.create(name=f"Bia {n}")
        pairs.append(Pair.objects.create(tournament=t, name=name, first_player=a, second_player=b))
    return pairs


def _print(client, org, t):
    client.force_login(org)
    response = client.post(reverse("tournaments:pair-cards", kwargs={"slug": t.slug}), HTTP_HOST=HOST)
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    if os.environ.get("PAIR_CARDS_PDF"):  # to look at it: PAIR_CARDS_PDF=/tmp/cards.pdf
        with open(os.environ["PAIR_CARDS_PDF"], "wb") as out:
            out.write(response.content)
    return response.content


def _codes_per_page(pdf: bytes, tmp_path, dpi: int) -> list[list[str]]:
    """Every QR code zbarimg reads on each page, rendered at ``dpi`` (a list: a code read twice counts twice)."""
    (tmp_path / "cards.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(tmp_path / "cards.pdf"), str(tmp_path / "p")], check=True)
    pages = []
    for image in sorted(tmp_path.glob("p*.png")):
        out = subprocess.run(["zbarimg", "-q", "--raw", str(image)], capture_output=True, text=True).stdout
        pages.append([line for line in out.splitlines() if line])
    return pages


def _words(pdf: bytes, tmp_path) -> list[list[tuple[str, float, float, float, float]]]:
    """Each page's words with their boxes (points, origin top left), from ``pdftotext -bbox``."""
    (tmp_path / "words.pdf").write_bytes(pdf)
    html = subprocess.run(["pdftotext", "-bbox", str(tmp_path / "words.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    pages = []
    for page in html.split("<page ")[1:]:
        pages.append([(unescape(w), float(x0), float(y0), float(x1), float(y1)) for x0, y0, x1, y1, w in re.findall(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>', page)])
    return pages


PAINT = {b"f", b"F", b"f*", b"B", b"B*", b"b", b"b*", b"S", b"s"}


def _drawings(pdf: bytes) -> list[list[tuple[float, float, float, float]]]:
    """Each page's painted paths (the QR codes' modules, borders, rules) as boxes in points, origin top
    left, read from the content stream through the current matrix; the page's own background aside."""
    pages = []
    for page in PdfReader(io.BytesIO(pdf)).pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        boxes, path = [], []

        def visit(operator, operands, cm, tm, boxes=boxes, path=path, height=height, width=width):
            def at(x, y):
                return cm[0] * x + cm[2] * y + cm[4], height - (cm[1] * x + cm[3] * y + cm[5])

            if operator in (b"m", b"l"):
                path.append(at(*(float(v) for v in operands[:2])))
            elif operator == b"c":
                path.extend(at(float(operands[i]), float(operands[i + 1])) for i in (0, 2, 4))
            elif operator == b"re":
                x, y, w, h = (float(v) for v in operands)
                path.extend([at(x, y), at(x + w, y + h)])
            elif operator in PAINT or operator == b"n":
                if operator != b"n" and path:
                    xs, ys = [p[0] for p in path], [p[1] for p in path]
                    box = (min(xs), min(ys), max(xs), max(ys))
                    if (box[2] - box[0]) * (box[3] - box[1]) < 0.5 * width * height:  # not the page's background
                        boxes.append(box)
                path.clear()

        page.extract_text(visitor_operand_before=visit)
        pages.append(boxes)
    return pages


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_every_qr_code_reads_at_100_dpi_and_opens_the_pairs_page_on_the_printing_address(client, org, t, venue,
                                                                                          tmp_path):
    _tools()
    pdf = _print(client, org, t)
    pages = _codes_per_page(pdf, tmp_path, dpi=100)
    read = [code for page in pages for code in page]
    expected = {f"http://{HOST}/torneios/{t.slug}/duplas/{pair.pk}/" for pair in venue}
    assert len(read) == 2 * len(venue)  # one code per half, every one of them read
    assert set(read) == expected  # the pair's page on the address printed from, never SITE_URL's default
    for pair in venue:
        assert read.count(f"http://{HOST}/torneios/{t.slug}/duplas/{pair.pk}/") == 2  # each player's half
    assert client.get(f"/torneios/{t.slug}/duplas/{venue[0].pk}/", HTTP_HOST=HOST).status_code == 200


def test_no_pin_is_under_the_qr_code_or_anything_and_each_half_shows_one_pin(client, org, t, venue, tmp_path):
    _tools()
    pdf = _print(client, org, t)
    words, drawings = _words(pdf, tmp_path), _drawings(pdf)
    assert len(words) == len(drawings)
    pins_seen = []
    for page_words, boxes in zip(words, drawings):
        assert boxes, "the QR codes are drawn objects of the page"
        pins = [w for w in page_words if re.fullmatch(r"\d{6}", w[0])]
        pins_seen += [w[0] for w in pins]
        for pin in pins:
            box = pin[1:]
            assert not any(_overlap(box, drawn) for drawn in boxes), f"PIN {pin[0]} under a drawing {box}"
            others = [w for w in page_words if w is not pin and _overlap(box, w[1:])]
            assert not others, f"PIN {pin[0]} overlapped by {others}"
    assert len(pins_seen) == 2 * len(venue)
    for player in Player.objects.filter(name__regex=r"^(Ana|Bia) \d$|^Maxi"):
        assert any(player.check_pin(pin) for pin in pins_seen)


MM = 72 / 25.4


def test_each_half_carries_one_pin_beside_its_players_name(client, org, t, venue, tmp_path):
    """The halves are cut apart: each half (a QR code, left of it the text, 97 x 54 mm) shows one PIN,
    on the line of its player's name; the partner's PIN is on the other half."""
    _tools()
    pdf = _print(client, org, t)
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True).stdout.decode()
    for player in Player.objects.filter(name__in=["Ana 0", "Bia 0"]):
        assert player.check_pin(re.search(re.escape(player.name) + r"\s+(\d{6})", text).group(1))
    halves = 0
    for page_words, boxes in zip(_words(pdf, tmp_path), _drawings(pdf)):
        codes = {(round(b[0] / 10), round(b[1] / 10)): b for b in boxes  # its white square and its modules: one
                 if b[2] - b[0] > 25 * MM and b[3] - b[1] > 25 * MM}
        for qr in codes.values():
            half = (qr[2] - 94 * MM, qr[1] - 5 * MM, qr[2] + 3 * MM, qr[1] + 49 * MM)
            inside = [w for w in page_words if _overlap(half, w[1:])]
            pins = [w for w in inside if re.fullmatch(r"\d{6}", w[0])]
            assert len(pins) == 1, (half, pins)
            name_line = [w[0] for w in inside if abs(w[4] - pins[0][4]) < 3 and w is not pins[0]]
            assert name_line and name_line[0] in ("Ana", "Bia", "Maximiliano")
            halves += 1
    assert halves == 2 * len(venue)


def test_a_worker_without_a_request_links_where_the_cards_were_printed_from(client, org, t, venue, settings):
    assert links.base_url(t) == settings.SITE_URL.rstrip("/")  # nothing printed yet: the setting's default
    _print(client, org, t)
    assert LinkAddress.objects.get(tournament=t).site_url == f"http://{HOST}"
    assert links.base_url(t) == f"http://{HOST}"  # a worker without a request: where the cards came from
    settings.SITE_URL_SET, settings.SITE_URL = True, "https://truco.example.org"
    assert links.base_url(t) == "https://truco.example.org"  # the operator's address wins everywhere


def test_the_calls_message_links_to_the_pairs_page_on_the_printing_address(client, org, t, venue):
    from tournaments import services
    from room.services import notify

    services.configure_stage(t, org, format="round_robin", seeding="order")
    services.generate_first_round(t, org)
    _print(client, org, t)
    match = t.matches.select_related("tournament", "round", "pair_a", "pair_b").exclude(pair_b=None).first()
    message = notify._message(match, match.pair_a, 3)
    assert message["url"] == f"http://{HOST}/torneios/{t.slug}/duplas/{match.pair_a_id}/"


def test_the_round_table_cards_remember_the_printing_address_too(client, org, t, venue, tmp_path):
    from tests.qr import qr_codes
    from tournaments import services

    services.configure_stage(t, org, format="round_robin", seeding="order")
    services.generate_first_round(t, org)
    client.force_login(org)
    rnd = t.rounds.get(number=1)
    response = client.get(reverse("printing:table-cards", kwargs={"pk": rnd.pk}), HTTP_HOST=HOST)
    assert response.status_code == 200
    assert links.base_url(t) == f"http://{HOST}"  # what the call's e-mail will link to
    assert all(code.startswith(f"http://{HOST}/mesa/") for code in qr_codes(response.content, tmp_path))
