"""Every article is accounted for, and every article the engine applies is cited by a test."""
import re
from pathlib import Path

import pytest

from referee.engine.articles import ARTICLES
from referee.engine.errors import ReportError
from referee.engine.game import first_dealer
from referee.engine.infractions import CATALOG

REGULATION = Path(__file__).resolve().parents[3] / "shared" / "regulation" / "regulamento-tecnico.txt"


def test_all_26_articles_and_the_items_of_art_11_are_listed():
    expected = {f"art. {n}" for n in range(1, 27)} | {f"art. 11.{n}" for n in range(1, 8)}
    assert set(ARTICLES) == expected


def test_every_article_the_engine_applies_is_cited_by_a_test():
    text = "".join(p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_engine_*.py"))
    cited = set(re.findall(r"art(?:\. |_)(\d+(?:[._]\d+)?)", text))
    cited = {c.replace("_", ".") for c in cited}
    missing = [a for a, (how, _) in ARTICLES.items()
               if how in ("engine", "infraction") and a.removeprefix("art. ") not in cited]
    assert not missing, f"no engine test cites {missing}"


def test_every_infraction_of_the_catalog_cites_a_listed_article_or_the_house_rules():
    for entry in CATALOG.values():
        assert entry.article in ARTICLES or entry.article.startswith(("regras 4 jogadores", "JTB")), entry


@pytest.mark.skipif(not REGULATION.exists(), reason="shared/regulation is not beside the checkout")
def test_the_regulation_text_has_these_26_articles():
    numbers = {int(m) for m in re.findall(r"^\s*(\d{1,2})\.\s", REGULATION.read_text(encoding="utf-8"), re.M)}
    assert set(range(1, 27)) <= numbers


def test_art_1_highest_truco_card_deals_first_and_a_tie_at_the_top_draws_again():
    assert first_dealer({0: "K-ouros", 1: "3-copas", 2: "4-paus", 3: "A-espadas"}) == 1
    assert first_dealer({0: "3-ouros", 1: "2-copas", 2: "3-paus", 3: "A-espadas"}) == [0, 2]
    with pytest.raises(ReportError):
        first_dealer({0: "8-ouros"})
