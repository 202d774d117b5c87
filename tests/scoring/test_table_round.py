"""A whole 16-table round played from the table links alone (the table links' acceptance run): the links are read
back from the printed table cards' QR codes, every hand is entered through them (with Idempotency-Keys,
some re-sent), both pairs sign with the PINs printed on the pair cards, the referees countersign and the
organizer receives: 16 official results, nothing lost or doubled, no account for any player."""
from __future__ import annotations

import random
import re
import shutil
import subprocess
import uuid

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import HandEntry, Match
from tests.tournaments import factories as f
from tournaments import services


@pytest.fixture(autouse=True)
def fast_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def read_qr_codes(pdf: bytes, tmp_path) -> list[str]:
    if not (shutil.which("zbarimg") and shutil.which("pdftoppm")):
        pytest.skip("zbarimg (zbar-tools) or pdftoppm is not installed")
    (tmp_path / "cards.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", "60", str(tmp_path / "cards.pdf"), str(tmp_path / "c")], check=True)
    urls = []
    for png in sorted(tmp_path.glob("c-*.png")):
        out = subprocess.run(["zbarimg", "--quiet", "--raw", str(png)], capture_output=True, text=True).stdout
        urls.extend(out.split())
    return urls


def printed_pins(pdf: bytes) -> dict[str, str]:
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout.decode()
    return dict(re.findall(r"(Player \d+[ab])\s+(\d{6})", text))


@pytest.mark.django_db
def test_a_16_table_round_from_the_table_links_only(tmp_path):
    org = f.user("org")
    referee = f.user("arbitro")
    t = f.tournament(org, slug="rodada16")
    f.referee_of(t, referee)
    f.pairs(t, 32)
    services.configure_stage(t, org, format="swiss", swiss_rounds=3)
    for table in range(1, 17):
        services.assign_referee(t, org, table=table, referee=referee)
    rnd = services.generate_first_round(t, org)
    matches = list(Match.objects.filter(round=rnd).order_by("table"))
    assert len(matches) == 16 and [m.table for m in matches] == list(range(1, 17))

    organizer = Client()
    organizer.force_login(org)
    cards = organizer.get(f"/sumulas/impressao/rodada/{rnd.pk}/cartoes-de-mesa.pdf")
    assert cards.status_code == 200
    urls = read_qr_codes(cards.content, tmp_path)
    # printed from the address the organizer is using: the test client's
    assert len(urls) == 16 and all(u.startswith("http://testserver/mesa/") for u in urls)
    pins = printed_pins(organizer.post(f"/torneios/{t.slug}/painel/cartoes-das-duplas.pdf").content)
    assert len(pins) == 64

    rng = random.Random(3)
    resent = 0
    for url in urls:
        token = url.rstrip("/").rsplit("/", 1)[1]
        table = Client()
        page = table.get(f"/mesa/{token}/")
        assert page.status_code == 200  # the page opens with no login
        state = table.get(f"/mesa/{token}/estado/").json()
        # the card is the table's for the whole event: the page enters the hands of the
        # table's match now with that match's own link, which its boot carries
        api = APIClient()
        api.credentials(HTTP_AUTHORIZATION="Table " + re.search(r'"token": "([^"]+)"', page.content.decode()).group(1))
        match_id = state["match"]
        winner = rng.choice([0, 1])
        position = (state["state"]["game"], state["state"]["hand"])
        while True:
            body = {"winner": winner if rng.random() < 0.8 else 1 - winner, "ended_by": "tricks", "value": 3,
                    "game": position[0], "hand": position[1]}
            key = str(uuid.uuid4())
            response = api.post(f"/api/scoring/matches/{match_id}/hands/", body, format="json",
                                HTTP_IDEMPOTENCY_KEY=key)
            assert response.status_code == 201, response.json()
            if rng.random() < 0.2:  # the reply was lost: the phone sends it again
                again = api.post(f"/api/scoring/matches/{match_id}/hands/", body, format="json",
                                 HTTP_IDEMPOTENCY_KEY=key)
                assert again.status_code == 201 and again.json() == response.json()
                resent += 1
            new = response.json()["state"]
            if new["over"]:
                digest = response.json()["match"]["current_version"]["digest"]
                break
            position = (new["game"], new["hand"])
        match = Match.objects.select_related("pair_a__first_player", "pair_b__second_player").get(pk=match_id)
        for role, player in (("team0", match.pair_a.first_player), ("team1", match.pair_b.second_player)):
            response = api.post(f"/api/scoring/matches/{match_id}/signatures/",
                                {"role": role, "player": player.pk, "pin": pins[player.name], "digest": digest},
                                format="json", HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()))
            assert response.status_code == 201, response.json()
    assert resent > 0

    staff = APIClient()
    for match in Match.objects.filter(round=rnd):
        assert match.status == "signed"
        staff.force_authenticate(referee)
        assert staff.post(f"/api/scoring/matches/{match.pk}/countersign/").status_code == 201
        staff.force_authenticate(org)
        assert staff.post(f"/api/scoring/matches/{match.pk}/received/").status_code == 200
    assert Match.objects.filter(round=rnd, status="received").count() == 16
    # nothing lost, nothing doubled: every match's hands are numbered 1..n in every game, 12 points each game
    for match in Match.objects.filter(round=rnd):
        for game in match.games.all():
            numbers = list(game.hands.order_by("position").values_list("number", flat=True))
            assert numbers == list(range(1, len(numbers) + 1))
            assert max(game.score_a, game.score_b) == 12
    assert HandEntry.objects.filter(table_link__isnull=True).count() == 0  # all entered through the links
