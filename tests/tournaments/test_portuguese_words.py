"""Portuguese on the pages (rest): plural pair names agree and contract ("Os
Zapeiros venceram", "vitória dos Zapeiros"), dates read "23 de novembro de 2026" everywhere,
counts get a thousands separator while ids, tables and form values never do."""
from __future__ import annotations

import datetime

import pytest
from django.template import engines
from django.urls import reverse
from django.utils import formats, timezone, translation

from scoring.models import Match
from tests.tournaments import factories as f
from tests.tournaments import pages_fixtures as pf
from tournaments.models import Pair, Player

pytestmark = pytest.mark.django_db


def _first_match(t):
    return Match.objects.filter(tournament=t).select_related("pair_a", "pair_b").order_by("pk").first()


def test_a_walkover_message_names_the_plural_winner_with_a_contraction(client):
    org = pf.organizer()
    client.force_login(org)
    t = pf.tournament(org, pairs=2)
    match = _first_match(t)
    Pair.objects.filter(pk=match.pair_a_id).update(name="Os Zapeiros")
    page = client.post(reverse("tournaments:walkover", kwargs={"slug": t.slug, "pk": match.pk}),
                       {"absent": match.pair_b_id, "reason": "não veio"}, follow=True).content.decode()
    assert "W.O. registrado: vitória dos Zapeiros." in page and "de Os Zapeiros" not in page


def test_the_sumula_says_the_plural_pair_won_and_dates_its_receipt_in_words(client):
    org = pf.organizer()
    client.force_login(org)
    t = pf.tournament(org, pairs=2)
    match = _first_match(t)
    Pair.objects.filter(pk=match.pair_a_id).update(name="Os Zapeiros")
    match.refresh_from_db()
    f.play(match, match.pair_a, org, loser_points=3)
    received = timezone.make_aware(datetime.datetime(2026, 11, 23, 15, 5), timezone.get_default_timezone())
    Match.objects.filter(pk=match.pk).update(received_at=received)
    page = client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    assert "Os Zapeiros venceram o jogo (1–0 em partidas)." in page
    assert "Recebida na mesa organizadora em 23 de novembro de 2026, às 15:05" in page
    document = client.get(reverse("scoring:sign", kwargs={"pk": match.pk})).content.decode()
    assert "vencida pelos Zapeiros" in document and "Os Zapeiros venceram, 1–0 em partidas" in document
    assert "Vencedor" not in document


def test_a_singular_name_keeps_a_singular_verb(client):
    org = pf.organizer()
    client.force_login(org)
    t = pf.tournament(org, pairs=2)
    match = _first_match(t)
    Pair.objects.filter(pk=match.pair_a_id).update(name="O Bando")
    match.refresh_from_db()
    f.play(match, match.pair_a, org)
    page = client.get(reverse("scoring:match", kwargs={"pk": match.pk})).content.decode()
    assert "O Bando venceu o jogo (1–0 em partidas)." in page


def test_every_date_format_writes_the_month_in_lower_case():
    day = datetime.date(2026, 11, 23)
    with translation.override("pt-br"):
        assert formats.date_format(day, "DATE_FORMAT") == "23 de novembro de 2026"
        assert formats.date_format(day, "F") == "novembro" and formats.date_format(day, "E") == "novembro"
        assert engines["django"].from_string("{{ d }}|{{ d|date }}").render({"d": day}) == (
            "23 de novembro de 2026|23 de novembro de 2026")
    with translation.override("en"):
        assert formats.date_format(day, "F") == "November"


def test_counts_have_a_thousands_separator_ids_and_form_values_none(client):
    org = pf.organizer()
    client.force_login(org)
    t = f.tournament(org, slug="grande", date=datetime.date(2026, 11, 23))
    players = Player.objects.bulk_create([Player(name=f"J{i}") for i in range(2000)])
    Pair.objects.bulk_create([Pair(tournament=t, name=f"D{i}", first_player=players[2 * i],
                                   second_player=players[2 * i + 1]) for i in range(1000)])
    big = Pair.objects.create(pk=12345, tournament=t, name="Os Zapeiros", rating=1850, seed=7,
                              first_player=Player.objects.create(name="Ana"),
                              second_player=Player.objects.create(name="Bia"))
    home = client.get("/").content.decode()
    assert "1.001 duplas" in home and "23 de novembro de 2026" in home
    dashboard = client.get(reverse("tournaments:dashboard", kwargs={"slug": t.slug})).content.decode()
    roster = client.get(reverse("tournaments:roster", kwargs={"slug": t.slug})).content.decode()  # folded: on demand
    panel = client.get(reverse("tournaments:pair-actions", kwargs={"slug": t.slug, "pk": big.pk})).content.decode()
    assert f'id="pair-{big.pk}"' in roster and 'value="1850"' in panel
    for html in (dashboard, roster, panel):
        assert "12.345" not in html and "1.850" not in html
    assert "<strong>1.001</strong> duplas confirmadas" in dashboard
    client.cookies["django_language"] = "en"
    assert "1,001 pairs" in client.get("/").content.decode()


def test_the_csv_limit_is_written_with_a_separator():
    from tournaments.csv_import import MAX_ROWS

    with translation.override("pt-br"):
        assert formats.localize(MAX_ROWS) == "5.000"
        assert formats.localize(2026) == "2.026"  # why years and ids go through |unlocalize


def test_zero_takes_the_plural_as_brazilians_write_it(client):
    org = pf.organizer()
    client.force_login(org)
    t = f.tournament(org, slug="vazio")
    html = client.get(reverse("tournaments:dashboard", kwargs={"slug": t.slug})).content.decode()
    assert "<strong>0</strong> duplas confirmadas" in html
    with translation.override("pt-br"):
        assert translation.ngettext("%(count)s pair imported.", "%(count)s pairs imported.", 0) % {
            "count": 0} == "0 duplas importadas."


def test_a_plural_pair_that_withdraws_agrees_with_its_verb(client):
    org = pf.organizer()
    client.force_login(org)
    t = pf.tournament(org, pairs=2)
    match = _first_match(t)
    Pair.objects.filter(pk=match.pair_a_id).update(name="Os Zapeiros")
    page = client.post(reverse("tournaments:withdraw", kwargs={"slug": t.slug, "pk": match.pair_a_id}),
                       {"reason": "machucado"}, follow=True).content.decode()
    assert "Os Zapeiros desistiram." in page and "1 jogo virou W.O." in page  # the toast, then the message
