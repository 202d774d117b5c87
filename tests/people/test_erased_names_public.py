"""An erased player's name (LGPD art. 18, VI: ``people.services.personal_data.erase``) is on no public page and
in no public API answer, while the seals still verify: a tournament whose matches were played through sealed
súmulas, a circuit stage, synced ratings; then every page and read an anonymous visitor reaches is fetched and
searched for the old name, its first name, the nickname and the pair name spelled with it (the printed sheets
anyone may fetch, the round's wall sheet and the súmulas that named her, as their text)."""
from __future__ import annotations

import datetime
import io

import pytest
from django.core.management import call_command
from django.test import Client

from people.services import personal_data
from scoring.models import SumulaVersion
from seasons.services import circuits, ratings
from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from draw.models import Match
from tournaments.models import Pair, Player

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager_celery")]

OLD = ("Zuleica Tamborim", "Zuleica", "Tamborim", "Zuzu")


@pytest.fixture
def erased_world():
    org = f.user("org", first_name="Olga")
    from django.contrib.auth.models import Permission

    org.user_permissions.add(Permission.objects.get(codename="add_tournament"))
    circuit = circuits.create_circuit(org, name="Circuito", season="2026", points=[100, 80, 65, 55], best_of=1)
    t = f.tournament(org, slug="copa-publica", date=datetime.date(2026, 3, 1))
    circuits.add_circuit_stage(circuit, t, org)
    zu = Player.objects.create(name="Zuleica Tamborim", nickname="Zuzu")
    bia = Player.objects.create(name="Beatriz Lima")
    pairs = [Pair.objects.create(tournament=t, name="Zuleica Tamborim/Beatriz Lima", first_player=zu,
                                 second_player=bia)]
    for n in range(3):
        pairs.append(Pair.objects.create(tournament=t, name=f"Dupla {n}",
                                         first_player=Player.objects.create(name=f"Jogador {n}a"),
                                         second_player=Player.objects.create(name=f"Jogador {n}b")))
    f.seed_in_order(pairs)
    services.configure_stage(t, org, format="single_elimination", third_place=True, seeding="order")
    services.generate_first_round(t, org)
    while matches := list(Match.objects.filter(tournament=t, tournament_result__isnull=True,
                                               pair_a__isnull=False, pair_b__isnull=False)):
        for match in matches:
            winner = match.pair_a if match.pair_a.seed < match.pair_b.seed else match.pair_b
            f.play(match, winner, org, loser_points=3)
    t.refresh_from_db()
    assert t.status == t.Status.FINISHED
    ratings.sync_ratings(full=True)
    return {"org": org, "t": t, "circuit": circuit, "zu": zu, "bia": bia, "pairs": pairs}


def public_urls(w) -> list[str]:
    t, circuit, zu, bia = w["t"], w["circuit"], w["zu"], w["bia"]
    slug = t.slug
    matches = list(Match.objects.filter(tournament=t))
    urls = ["/", f"/torneios/{slug}/", f"/torneios/{slug}/chave/", f"/torneios/{slug}/chave.svg",
            f"/torneios/{slug}/grupos/", f"/torneios/{slug}/classificacao/", f"/torneios/{slug}/rodadas/",
            f"/torneios/{slug}/fases/", f"/torneios/{slug}/telao/", f"/torneios/{slug}/categorias/",
            f"/circuitos/{circuit.slug}/", f"/circuitos/{circuit.slug}/telao/", f"/circuitos/{circuit.slug}/etapas/",
            f"/circuitos/{circuit.slug}/ranking.csv", f"/circuitos/{circuit.slug}/ranking.json",
            "/api/tournaments/", f"/api/tournaments/{slug}/", f"/api/tournaments/{slug}/pairs/",
            f"/api/tournaments/{slug}/rounds/", f"/api/tournaments/{slug}/matches/",
            f"/api/tournaments/{slug}/standings/", f"/api/tournaments/{slug}/bracket/",
            f"/api/tournaments/{slug}/stages/", f"/api/tournaments/{slug}/exports/standings/",
            f"/api/tournaments/{slug}/exports/results/", "/api/circuits/", f"/api/circuits/{circuit.slug}/",
            "/sumulas/verificar/"]
    urls += [f"/torneios/{slug}/rodadas/{n}/" for n in sorted({m.round.number for m in matches})]
    urls += [f"/torneios/{slug}/rodadas/{n}/mural.pdf" for n in sorted({m.round.number for m in matches})]
    urls += [f"/api/tournaments/{slug}/rounds/{n}/" for n in sorted({m.round.number for m in matches})]
    urls += [f"/api/tournaments/{slug}/exports/rounds/{n}/pairings/" for n in sorted({m.round.number for m in matches})]
    for pair in w["pairs"]:
        urls += [f"/torneios/{slug}/duplas/{pair.pk}/", f"/api/tournaments/{slug}/pairs/{pair.pk}/",
                 f"/api/referee/pairs/{pair.pk}/history/"]
    for player in (zu, bia):
        urls += [f"/jogadores/{player.pk}/", f"/jogadores/{player.pk}/rating/", f"/jogadores/{player.pk}/rating.svg",
                 f"/api/people/players/{player.pk}/", f"/api/people/players/{player.pk}/ratings/"]
    for match in matches:
        if w["pairs"][0].pk in (match.pair_a_id, match.pair_b_id):  # the printed súmulas that named her
            urls += [f"/sumulas/impressao/partida/{match.pk}/em-branco.pdf",
                     f"/sumulas/impressao/partida/{match.pk}/preenchida.pdf"]
        urls += [f"/sumulas/partida/{match.pk}/", f"/api/scoring/matches/{match.pk}/",
                 f"/api/scoring/matches/{match.pk}/versions/", f"/api/tournaments/{slug}/matches/{match.pk}/"]
    for version in SumulaVersion.objects.filter(match__tournament=t):
        urls += [f"/sumulas/verificar/{version.digest}/", f"/api/scoring/verify/{version.digest}/"]
    return urls


def _text(answer) -> str:
    body = b"".join(answer.streaming_content) if answer.streaming else answer.content
    if answer.get("Content-Type", "").startswith("application/pdf"):  # the printed sheets, as their text
        from pypdf import PdfReader

        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
    return body.decode()


def fetch_all(urls) -> dict[str, str]:
    visitor = Client()
    return {url: _text(answer) for url in urls if (answer := visitor.get(url)).status_code == 200}


def test_no_public_page_names_an_erased_player_and_the_seals_still_verify(erased_world):
    urls = public_urls(erased_world)
    before = fetch_all(url for url in urls if not url.endswith(".pdf"))  # the PDFs (slow) are read after only
    assert any("Zuleica Tamborim" in text for text in before.values())  # the crawl does reach the name
    shown_before = {url for url, text in before.items() if "Zuleica" in text}
    assert len(shown_before) >= 10, sorted(shown_before)

    erased = personal_data.erase(erased_world["zu"])
    after = fetch_all(urls)
    assert set(before) <= set(after) and len(after) - len(before) == 6, set(after) - set(before)  # all answer
    leaks = {url: [word for word in OLD if word in text] for url, text in after.items()
             if any(word in text for word in OLD)}
    assert not leaks, "; ".join(f"{url}: {words}" for url, words in sorted(leaks.items()))
    assert any(erased.name in text for text in after.values())
    assert any("Beatriz Lima" in text for text in after.values())  # the partner keeps their name
    out = io.StringIO()
    call_command("verify_sumulas", stdout=out)
    call_command("verify_results", stdout=out)  # raises CommandError on any seal or derived number altered
