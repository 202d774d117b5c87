"""The bracket drawing (tournaments/svg.py): well-formed SVG, one box per match, names, escaping."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from draw.pairing import double_elimination, record_results, single_elimination
from tournaments.svg import Labels, MatchDisplay, bracket_svg, match_numbers, pending_text, round_title
from draw.pairing.elimination import Section

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def match_boxes(root: ET.Element) -> list[ET.Element]:
    return [g for g in root.iter(f"{NS}g") if "bk-match" in g.get("class", "").split()]


def texts(root: ET.Element) -> list[str]:
    return ["".join(t.itertext()) for t in root.iter(f"{NS}text")]


def all_matches(bracket):
    return list(bracket.matches())


def play(bracket, rng: random.Random, rounds: int = 100):
    for _ in range(rounds):
        playable = bracket.playable()
        if not playable:
            break
        bracket = record_results(bracket, {m.match_id: rng.choice([m.top.pair, m.bottom.pair]) for m in playable})
    return bracket


@pytest.mark.parametrize("entrants", [2, 3, 5, 8, 13, 16, 64, 100])
def test_single_elimination_one_box_per_match(entrants):
    bracket = single_elimination(range(1, entrants + 1))
    names = {i: f"Dupla {i}" for i in range(1, entrants + 1)}
    root = parse(bracket_svg(bracket, names))

    boxes = match_boxes(root)
    assert len(boxes) == len(all_matches(bracket)) == bracket.size - 1
    assert {b.get("data-match") for b in boxes} == {m.match_id for m in all_matches(bracket)}
    drawn = texts(root)
    for i in range(1, entrants + 1):
        assert any(f"Dupla {i}" in t for t in drawn), i


@pytest.mark.parametrize("entrants", [2, 3, 6, 8, 16, 64])
def test_double_elimination_draws_losers_bracket_and_grand_final(entrants):
    bracket = double_elimination(range(entrants))
    root = parse(bracket_svg(bracket, {}))

    boxes = match_boxes(root)
    assert len(boxes) == len(all_matches(bracket))
    ids = {b.get("data-match") for b in boxes}
    assert {"GF1", "GF2"} <= ids
    if bracket.losers:
        assert any(i.startswith("L") for i in ids)
        assert "Losers' bracket" in texts(root)
    assert "Grand final" in texts(root)
    assert root.get("class") == "bracket bracket-double"


def test_third_place_match_is_drawn():
    bracket = single_elimination(range(8), third_place=True)
    root = parse(bracket_svg(bracket, {}))

    assert len(match_boxes(root)) == 8
    assert "Third place" in texts(root)


def test_byes_are_shown_and_get_no_number():
    bracket = single_elimination(["a", "b", "c", "d", "e"])  # 8-bracket: seeds 1, 2, 3 have byes
    root = parse(bracket_svg(bracket, {"a": "Ases", "b": "Bravos", "c": "Copas", "d": "Damas", "e": "Espadas"}))

    assert texts(root).count("bye") == 3
    numbers = match_numbers(bracket)
    bye_boxes = [b for b in match_boxes(root) if b.get("data-number") is None]
    assert len(bye_boxes) == 3
    assert len(numbers) == 7 - 3
    assert sorted(numbers.values()) == [1, 2, 3, 4]
    # the bye winners are already in round two
    drawn_pairs = [t.get("data-pair") for t in root.iter(f"{NS}text") if t.get("data-pair")]
    assert drawn_pairs.count("a") == drawn_pairs.count("b") == drawn_pairs.count("c") == 2
    assert drawn_pairs.count("d") == drawn_pairs.count("e") == 1


def test_pending_slots_name_where_their_pair_comes_from():
    bracket = double_elimination(range(8))
    numbers = match_numbers(bracket)
    root = parse(bracket_svg(bracket, {}))
    drawn = texts(root)

    final_sources = bracket.winners[-1][0]
    assert f"Winner of {numbers[final_sources.top.source.match_id]}" in drawn
    assert any(t.startswith("Loser of ") for t in drawn)


def test_results_champion_and_scores():
    bracket = single_elimination(["a", "b", "c", "d"])
    bracket = record_results(bracket, {"W1-1": "a", "W1-2": "c"})
    bracket = record_results(bracket, {"W2-1": "c"})
    displays = {
        "W1-1": MatchDisplay("2", "1"),
        "W1-2": MatchDisplay("W.O.", "–"),
        "W2-1": MatchDisplay("12", "9", href="/sumulas/partida/3/"),
    }
    names = {"a": "Ases", "b": "Bravos", "c": "Copas", "d": "Damas"}
    root = parse(bracket_svg(bracket, names, displays))

    drawn = texts(root)
    assert "Champion" in drawn
    champion = [t for t in root.iter(f"{NS}text") if t.get("class") == "bk-champion-name"]
    assert ["".join(t.itertext()) for t in champion] == ["CopasCopas"]  # tooltip + text
    assert {"2", "1", "W.O.", "12", "9"} <= set(drawn)
    winners = ["".join(t.itertext()) for t in root.iter(f"{NS}text") if "bk-winner" in t.get("class", "")
               and "bk-name" in t.get("class", "")]
    assert any("Copas" in w for w in winners) and any("Ases" in w for w in winners)
    links = [a.get("href") for a in root.iter(f"{NS}a")]
    assert links == ["/sumulas/partida/3/"]


def test_champion_box_empty_until_decided():
    bracket = single_elimination(range(4))
    root = parse(bracket_svg(bracket, {}))
    assert [t for t in root.iter(f"{NS}text") if t.get("class") == "bk-champion-name"] == []
    assert "—" in texts(root)


def test_double_elimination_champion_after_reset():
    bracket = double_elimination(["a", "b"])
    bracket = record_results(bracket, {"W1-1": "a"})
    bracket = record_results(bracket, {"GF1": "b"})
    bracket = record_results(bracket, {"GF2": "b"})
    assert bracket.champion == "b"
    root = parse(bracket_svg(bracket, {"a": "Alfa", "b": "Beta"}))
    champion = [t for t in root.iter(f"{NS}text") if t.get("class") == "bk-champion-name"]
    assert "Beta" in "".join(champion[0].itertext())


def test_reset_not_needed_is_marked():
    bracket = double_elimination(["a", "b"])
    bracket = record_results(bracket, {"W1-1": "a", "GF1": "a"})
    root = parse(bracket_svg(bracket, {}))
    assert "not needed" in texts(root)


def test_names_are_escaped():
    evil = '<script>alert("x")</script> & \'Zap\''
    bracket = single_elimination(["x", "y"])
    svg = bracket_svg(bracket, {"x": evil, "y": "Ouros\x00\x07 ok"}, {"W1-1": MatchDisplay(href='/a?b=1&c="2"')})

    assert "<script>" not in svg
    assert "&lt;script&gt;" in svg
    root = parse(svg)  # still well-formed XML despite the control characters
    titles = ["".join(t.itertext()) for t in root.iter(f"{NS}title")]
    assert evil in titles  # the full name, unescaped once parsed
    assert "Ouros ok" in titles
    assert [a.get("href") for a in root.iter(f"{NS}a")] == ['/a?b=1&c="2"']


def test_long_names_are_shortened_with_the_full_name_as_tooltip():
    long_name = "Associação Atlética dos Amigos do Truco de Piracicaba"
    bracket = single_elimination(["x", "y"])
    root = parse(bracket_svg(bracket, {"x": long_name, "y": "B"}))
    name = next(t for t in root.iter(f"{NS}text") if t.get("data-pair") == "x")
    assert name.find(f"{NS}title").text == long_name
    shown = "".join(name.itertext())[len(long_name):]
    assert shown.endswith("…") and len(shown) <= 24


def test_labels_are_replaceable():
    labels = Labels(final="Final!", champion="Campeão", round="Rodada {number}", title="Chave")
    bracket = single_elimination(range(16))
    root = parse(bracket_svg(bracket, {}, labels=labels, dom_id="chave"))
    assert "Final!" in texts(root) and "Campeão" in texts(root) and "Rodada 1" in texts(root)
    assert root.get("id") == "chave" and root.get("aria-labelledby") == "chave-title"
    assert round_title(bracket, Section.WINNERS, 3, labels) == "Semifinals"


def test_size_is_sensible_for_64_pairs():
    bracket = play(single_elimination(range(64)), random.Random(1), rounds=3)
    root = parse(bracket_svg(bracket, {}))
    width, height = int(root.get("width")), int(root.get("height"))
    assert root.get("viewBox") == f"0 0 {width} {height}"
    assert 1200 <= width <= 1800  # six rounds and the champion, about 230 px each
    assert 1500 <= height <= 2400  # 32 first-round boxes
    assert len(match_boxes(root)) == 63


def test_every_line_starts_at_a_box_and_every_box_fits():
    bracket = play(double_elimination(range(23)), random.Random(7), rounds=4)
    root = parse(bracket_svg(bracket, {}))
    width, height = int(root.get("width")), int(root.get("height"))
    for rect in root.iter(f"{NS}rect"):
        x, y = float(rect.get("x")), float(rect.get("y"))
        assert 0 <= x and x + float(rect.get("width")) <= width
        assert 0 <= y and y + float(rect.get("height")) <= height


@pytest.mark.parametrize("entrants", [5, 7, 12, 24])
def test_numbers_do_not_change_while_results_come_in(entrants):
    bracket = double_elimination(range(entrants))
    before = match_numbers(bracket)
    played = play(bracket, random.Random(entrants))
    assert played.complete
    assert match_numbers(played) == before


def test_pending_slots_skip_the_byes_of_the_draw():
    # 7 pairs in a bracket of 8: seed 1 has a bye, so losers' round 1 match 1 is a bye too
    bracket = double_elimination(range(1, 8))
    numbers = match_numbers(bracket)
    assert "W1-1" not in numbers and "L1-1" not in numbers
    l2 = bracket.losers[1][0]
    assert l2.top.source.match_id == "L1-1"
    # the winner of the bye match L1-1 is the loser of W1-2: say so
    assert pending_text(bracket, l2.top, numbers=numbers) == f"Loser of {numbers['W1-2']}"
    root = parse(bracket_svg(bracket, {}))
    boxes = {b.get("data-match"): b for b in match_boxes(root)}
    assert "bk-unplayed" in boxes["L1-1"].get("class") and boxes["L1-1"].get("data-number") is None
