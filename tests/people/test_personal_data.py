"""LGPD (docs/people.md): the player's data link, handed by an organizer of an event they
entered, opens their data (see, JSON export) and erasure (the link, the confirmation and their PIN);
erasure anonymises the name and keeps the results; the link is never cached, logged or re-usable."""
import json
import re
import urllib.parse

import pytest
from django.test import Client

from people.models import DataAccessLink, Player
from people.services import personal_data
from tests.people.helpers import event
from tests.tournaments import factories as f
from tournaments.models import Pair, Result

pytestmark = pytest.mark.django_db


def test_a_player_sees_exports_and_erases_their_data_with_the_link_and_their_pin():
    org = f.user("org")
    t, pair, rivals, match = event(org, "copa", {"name": "Ana Souza", "club": "Clube do Truco", "contact": "ana@x"})
    ana = pair.first_player
    ana.set_pin("2468")
    ana.save(update_fields=["pin_hash"])
    assert Client().post(f"/jogadores/{ana.pk}/link-dos-dados/").status_code == 302  # to the login
    stranger = Client()
    stranger.force_login(f.user("stranger"))
    assert stranger.post(f"/jogadores/{ana.pk}/link-dos-dados/").status_code == 403
    organizer = Client()
    organizer.force_login(org)
    issued = organizer.post(f"/jogadores/{ana.pk}/link-dos-dados/")
    assert issued.status_code == 200 and issued["Cache-Control"] == "no-store"
    html = issued.content.decode()
    url = re.search(r'value="([^"]+)" data-testid="data-link-url"', html).group(1)
    assert 'data-testid="data-link-qr"><svg' in html and 'data-testid="copy-data-link"' in html  # scan, copy or send
    whatsapp = re.search(r'href="(https://wa.me/\?text=[^"]+)"', html).group(1)
    assert urllib.parse.quote(url, safe="") in whatsapp.replace("&amp;", "&")
    path = url.split("testserver", 1)[1]
    token = path.split("/")[2]
    assert DataAccessLink.objects.get().token_hash != token and token not in DataAccessLink.objects.get().token_hash

    player = Client()
    page = player.get(path)
    assert page.status_code == 200 and page["Referrer-Policy"] == "no-referrer"
    assert "ana@x" in page.content.decode() and "Copa" in page.content.decode()
    exported = json.loads(player.get(path + "exportar.json").content)
    assert exported["player"]["contact"] == "ana@x" and exported["player"]["club"] == "Clube do Truco"
    assert exported["tournaments"][0]["pair"] == "Ana/copa" and exported["tournaments"][0]["matches"][0]["outcome"] == "won"
    assert exported["discipline"] == {"rulings": [], "penalties": []}
    assert player.get("/dados/" + "x" * 43 + "/").status_code == 404

    player.post(path + "apagar/", {"confirm": "APAGAR", "pin": "0000"})  # the wrong PIN: nothing erased
    assert Player.objects.get(pk=ana.pk).name == "Ana Souza"
    player.post(path + "apagar/", {"confirm": "sim", "pin": "2468"})  # no confirmation: nothing erased
    assert Player.objects.get(pk=ana.pk).name == "Ana Souza"
    erased = player.post(path + "apagar/", {"confirm": "apagar", "pin": "2468"})
    assert erased.status_code == 200
    ana.refresh_from_db()
    assert ana.name == f"Jogador anonimizado {ana.pk}" and (ana.contact, ana.nickname, ana.pin_hash) == ("", "", "")
    assert ana.club is None and not ana.memberships.exists() and ana.anonymised_at is not None
    assert Pair.objects.get(pk=pair.pk).name == f"Jogador anonimizado {ana.pk}/copa"  # the pair named after her
    assert Result.objects.get(match=match).winner_id == pair.pk  # the results stay
    assert player.get(path).status_code == 404  # the link is gone
    assert "Ana Souza" not in Client().get(f"/jogadores/{ana.pk}/").content.decode()


def test_links_expire_and_the_log_keeps_four_characters():
    from config.logs import redact

    org = f.user("org")
    _, pair, _, _ = event(org, "copa", {"name": "Bia"})
    link, token = personal_data.issue_link(pair.first_player, by=org)
    assert personal_data.link_for(token) == link
    assert redact(f"GET /dados/{token}/exportar.json") == f"GET /dados/{token[:4]}…/exportar.json" or \
        token not in redact(f"GET /dados/{token}/exportar.json")
    DataAccessLink.objects.filter(pk=link.pk).update(expires_at=link.issued_at)
    assert personal_data.link_for(token) is None
