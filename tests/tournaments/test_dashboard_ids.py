"""Accessibility of the organizer's pages: every id on the dashboard is unique, so each
label points at its own form's field (the format, registration, CSV and later-stage forms used to share
``id_name``, ``id_format``…); the login page puts the cursor in the user name."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.tournaments import pages_fixtures as pf
from tests.tournaments.pages_fixtures import url

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("drawn", [False, True])
def test_no_id_twice_on_the_dashboard_and_every_label_has_its_field(client, drawn):
    org = pf.logged_in_organizer(client)
    t = pf.tournament(org, pairs=4, draw=drawn, format="swiss", swiss_rounds=3)
    html = client.get(url("dashboard", t)).content.decode()
    ids = Counter(re.findall(r'\sid="([^"]+)"', html))
    assert [i for i, n in ids.items() if n > 1] == []
    for target in re.findall(r'<label[^>]*\sfor="([^"]+)"', html):
        assert target in ids, f'label for="{target}" points at nothing'


def test_the_login_page_starts_in_the_user_name(client):
    html = client.get("/entrar/").content.decode()
    assert re.search(r'<input id="id_username"[^>]*autofocus', html)
