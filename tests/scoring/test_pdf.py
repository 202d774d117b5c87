"""The súmula PDFs (scoring/pdf.py), read back with pdftotext: blank and filled, one and many."""
from __future__ import annotations

import re

import pytest
import qrcode
from django.urls import NoReverseMatch
from django.utils import translation

from scoring import pdf, pdf_sheets
from tests.scoring.documents import make_blank_document, make_document, make_signatures


def compact(text: str) -> str:
    """pdftotext -layout keeps columns apart with runs of spaces; squeeze them."""
    return re.sub(r"[ \t]+", " ", text)


def flat(text: str) -> str:
    """All whitespace, line and page breaks included, as single spaces: phrases that wrap still match."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def played():
    document = make_document(3, best_of=3, penalties_per_game=2, corrections=2)
    return document, make_signatures(document)


@pytest.fixture(scope="module")
def played_pdf(played):
    return pdf.render_filled(*played)


def test_filled_sumula_holds_teams_players_scores_penalties_corrections_and_digest(played, played_pdf, pdf_text):
    document, signatures = played
    text = compact(pdf_text(played_pdf))
    assert text.startswith("Mesa 7 · Jogo 17") or "SÚMULA" in text
    for team in document["teams"]:
        assert team["name"] in text
        for player in team["players"]:
            assert player in text
    assert "Torneio de Demonstração" in text and "Rodada 2" in text and "Mesa 7" in text
    assert "Carla Árbitra de Assunção" in text and "Melhor de 3 partidas de 12 pontos" in text
    for game in document["games"]:
        a, b = game["score"]
        assert f"Partida {game['number']}" in text
        assert f"A {a} × {b} B" in text
        for entry in game["entries"]:
            if entry["kind"] == "penalty":
                assert f"{entry['article']} — {entry['reason']}" in text
                assert f"+{entry['points']}" in text
    # every hand's running score, in order, on its own row: "<hand number> <dealer> ... <a> <b>"
    rows = [line.split() for line in text.splitlines()]
    for game in document["games"]:
        hands = [e for e in game["entries"] if e["kind"] == "hand"]
        found = [r for r in rows if r and r[0].isdigit() and len(r) >= 4 and r[-2:] != r[:2]]
        for hand in hands:
            assert any(r[0] == str(hand["number"]) and r[-2:] == [str(s) for s in hand["score"]] for r in found), hand
    games_won = document["result"]["games"]
    winner = document["teams"][document["result"]["winner"]]["name"]
    assert f"{games_won[0]} × {games_won[1]}" in text and f"Vencedora: {winner}" in text
    for correction in document["corrections"]:
        assert correction["reason"] in text
    for group in pdf_sheets.digest_groups(document["digest"]).split():
        assert group in text
    assert "Verifique esta súmula" in text


def test_filled_sumula_lists_signatures_with_local_times_and_marks_the_voided_one(played, played_pdf, pdf_text):
    document, signatures = played
    text = flat(pdf_text(played_pdf))
    valid = [s for s in signatures if s["digest"] == document["digest"]]
    voided = [s for s in signatures if s["digest"] != document["digest"]]
    assert len(valid) == 3 and len(voided) == 1
    for signature in valid:
        assert f"{signature['name']} · assinou em {pdf_sheets.local_time(signature['at'])}" in text
    assert "ANULADA: assinou outro conteúdo (" + voided[0]["digest"][:12] in text
    # 15:30 at -03:00 plus 7 minutes per match id (17): São Paulo time as printed
    assert pdf_sheets.local_time(valid[0]["at"]) == "21/11/2026 17:29"
    assert "JOGADOR DA DUPLA A" in text and "ÁRBITRO" in text


def test_the_qr_code_encodes_the_verification_url(settings):
    settings.SITE_URL = "https://truco.example.org"
    digest = "ab" * 32
    url = pdf_sheets.verification_url(digest)
    assert url == f"https://truco.example.org/sumulas/verificar/{digest}/"
    svg = pdf_sheets.qr_svg(url)
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0, mask_pattern=pdf_sheets.QR_MASK)
    code.add_data(url)
    code.make(fit=True)
    expected = code.get_matrix()
    n = len(expected)
    drawn = [[False] * n for _ in range(n)]
    for x, y, w in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\d+z", svg):
        for i in range(int(w)):
            drawn[int(y) - 2][int(x) - 2 + i] = True
    assert drawn == expected
    context = pdf_sheets.filled_context({**make_document(1), "digest": digest})
    assert context["verify_url"] == url and str(context["qr"]) == svg.replace("30mm", f"{pdf_sheets.QR_SIZE_MM}mm")


def test_verification_path_reverses_the_verify_page_or_builds_it(monkeypatch):
    digest = "c" * 64
    assert pdf_sheets.verification_path(digest) == f"/sumulas/verificar/{digest}/"

    def missing(*args, **kwargs):
        raise NoReverseMatch("not mounted yet")

    monkeypatch.setattr(pdf_sheets, "reverse", missing)
    assert pdf_sheets.verification_path(digest) == f"/sumulas/verificar/{digest}/"


@pytest.mark.parametrize("best_of, pages", [(1, 1), (3, 2), (5, 3)])
def test_blank_sumula_holds_the_header_and_a_grid_per_game(best_of, pages, pdf_text, pdf_pages):
    document = make_blank_document(5, best_of=best_of, table=12, referee=None,
                                   rules={"preset": "jtb", "options": {"deck": "limpo", "eleven_run_points": 3}})
    data = pdf.render_blank(document)
    assert pdf_pages(data) == pages
    text = flat(pdf_text(data))
    assert "SÚMULA (EM BRANCO)" in text and "Mesa 12" in text and "Jogo 17" not in text  # 17: an id, no number
    numbered = flat(pdf_text(pdf.render_blank(pdf_sheets.for_print(document, number=3))))
    assert "Jogo 3" in numbered  # the tournament's number for the match, when it has one
    assert "Torneio de Demonstração" in text and "Rodada 2" in text
    for team in document["teams"]:
        assert team["name"] in text and " · ".join(team["players"]) in text
    assert ("Partida única de 12 pontos" if best_of == 1 else f"Melhor de {best_of} partidas de 12 pontos") in text
    assert "Truco Brasileiro (JTB); variantes: baralho limpo Q J K A 2 3 (24 cartas); mão de onze recusada: os adversários marcam 3" in text
    for number in range(1, best_of + 1):
        assert f"Partida {number} até 12 pontos" in text
    assert text.count("Mão Pé") == best_of and "1 3 6 9 12 A B A B" in text
    assert "Penalidades (tentos)" in text and "Infrator" in text and "Artigo" in text
    assert "Partidas ganhas: A B" in text and "Assinaturas (art. 25)" in text
    assert "Jogador da dupla A · " + document["teams"][0]["name"] in text and "Árbitro" in text
    assert "Mão de onze (art. 18): a dupla com 11 vê as cartas do parceiro e decide se joga; jogada, vale 3; recusada, os adversários marcam 3." in text  # the legend follows the options
    assert "vale 3; mão empatada não marca (art. 20)" in text
    numbers = [int(n) for line in re.findall(r"^[ \d]+$", pdf_text(data), re.M) for n in line.split()]
    assert numbers.count(24) == best_of and numbers.count(1) >= best_of  # 24 numbered rows per game


def test_blank_of_the_default_rules_names_no_variant(pdf_text):
    document = make_blank_document(8, best_of=1)
    text = flat(pdf_text(pdf.render_blank(document)))
    assert "Regulamento Técnico de Truco" in text and "variantes" not in text
    assert "os adversários marcam 1" in text


def test_rules_in_words_names_only_what_differs_from_the_preset():
    from referee.engine.rules import PRESETS

    with translation.override("pt-br"):
        assert pdf_sheets.rules_in_words({"preset": "regulamento-tecnico", "options": {}}) == ("Regulamento Técnico de Truco", [])
        full = PRESETS["jtb"].as_dict()  # what the services store: every option spelled out
        assert pdf_sheets.rules_in_words(full) == ("Truco Brasileiro (JTB)", [])
        name, changed = pdf_sheets.rules_in_words({"preset": "regras-4-jogadores", "options": {"iron_hand_value": 1,
                                                                                         "raises": "any_time"}})
        assert name == "Regras da casa para 4 jogadores" and changed == ["mão de ferro vale 1"]
        assert pdf_sheets.rules_in_words({"preset": "regulamento-tecnico", "options": {"score_cap": False}})[1] == [
            "placar sem limite de 12"]


def test_every_option_value_of_the_engine_has_words():
    from referee.engine.rules import OPTIONS

    assert set(pdf_sheets.OPTION_WORDS) == {(name, value) for name, option in OPTIONS.items() for value in option.choices}


def test_pdfs_are_portuguese_whatever_the_active_language(pdf_text):
    document = make_document(4, best_of=1)
    with translation.override("en"):
        text = flat(pdf_text(pdf.render_filled(document, make_signatures(document))))
        assert translation.get_language() == "en"
    assert "SÚMULA" in text and "Resultado" in text and "Assinaturas (art. 25)" in text and "Score sheet" not in text


def test_an_open_match_a_friendly_and_a_draft(pdf_text):
    document = make_document(6, best_of=3, finished=False, tournament=None, table=None, referee=None)
    text = flat(pdf_text(pdf.render_filled(document, [], draft=True)))
    assert "Jogo amistoso" in text and "Jogo não terminado" in text and "em andamento" in text
    assert "RASCUNHO: a súmula mudou depois da última versão emitida" in text
    assert "Rascunho: ainda não verificável" in text and pdf_sheets.verification_url(document["digest"]) not in text
    assert text.count("não assinada") == 3
    first = make_document(6, best_of=3, finished=False, corrections=0)  # version 1, never issued
    assert "PROVISÓRIA: nenhuma versão desta súmula foi emitida ainda" in flat(pdf_text(pdf.render_filled(first, draft=True)))
    blank = flat(pdf_text(pdf.render_blank(make_blank_document(6, tournament=None, table=None))))
    assert "Jogo amistoso" in blank and "Mesa" not in blank.split("TORNEIO")[0].replace("Mesa 7", "")


def test_render_many_puts_each_sumula_on_its_own_pages_in_order(pdf_text, pdf_pages):
    documents = [make_document(20 + i, match_id=100 + i, table=i + 1, best_of=b) for i, b in enumerate([3, 1, 3])]
    sheets = [pdf.Sheet(d, make_signatures(d)) for d in documents]
    done = []
    data = pdf.render_many(sheets, "filled", on_progress=done.append)
    assert done == [1, 2, 3]
    singles = [pdf.render_filled(d, s) for d, s, _ in sheets]
    assert pdf_pages(data) == sum(pdf_pages(single) for single in singles)
    pages = pdf_text(data).split("\f")
    starts = [i for i, page in enumerate(pages) if "Página 1 de" in page]
    assert len(starts) == 3
    for start, document in zip(starts, documents):
        assert f"Mesa {document['match']['table']}" in pages[start] and document["digest"][:8] in pages[start]
    # plain tuples work too, and blanks ignore signatures
    blank = pdf.render_many([(d, ()) for d in documents], "blank")
    assert pdf_pages(blank) == 2 + 1 + 2
    with pytest.raises(ValueError):
        pdf.render_many([], "filled")
    with pytest.raises(ValueError):
        pdf.render_many(sheets, "colorido")


def test_the_stylesheet_and_fonts_are_built_once_per_thread():
    first = pdf._weasy()
    pdf.render_blank(make_blank_document(1))
    assert pdf._weasy() is first


def test_names_are_escaped_not_interpreted(pdf_text):
    document = make_document(9, best_of=1)
    document["teams"][0]["name"] = '<img src="http://example.org/x.png"> Os <b>Zaps</b> & Cia'
    text = flat(pdf_text(pdf.render_filled(document)))
    assert '<img src="http://example.org/x.png"> Os <b>Zaps</b> & Cia' in text


def test_the_printed_qr_code_reads_back_as_the_verification_url(played, played_pdf, tmp_path):
    import shutil
    import subprocess

    if not (shutil.which("zbarimg") and shutil.which("pdftoppm")):
        pytest.skip("zbarimg (Debian package zbar-tools) or pdftoppm is not installed")
    document, _ = played
    (tmp_path / "s.pdf").write_bytes(played_pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-png", str(tmp_path / "s.pdf"), str(tmp_path / "page")], check=True)
    found = set()
    for image in sorted(tmp_path.glob("page*.png")):
        out = subprocess.run(["zbarimg", "-q", "--raw", str(image)], capture_output=True, text=True).stdout
        found.update(line for line in out.splitlines() if line)
    assert found == {pdf_sheets.verification_url(document["digest"])}


def test_chunks_are_joined_into_one_pdf_and_the_collector_is_restored(pdf_text, pdf_pages):
    import gc

    documents = [make_document(40 + i, match_id=200 + i, table=i + 1, best_of=1, style="quick") for i in range(5)]
    assert gc.isenabled()
    data = pdf.render_many([(d, ()) for d in documents], "filled", chunk_size=2)
    assert gc.isenabled()
    assert pdf_pages(data) == 5
    pages = pdf_text(data).split("\f")
    assert [f"Mesa {i + 1}" in page for i, page in enumerate(pages[:5])] == [True] * 5
    gc.disable()
    try:
        pdf.render_many([(documents[0], ())], "blank")
        assert not gc.isenabled()  # left as it was found
    finally:
        gc.enable()


def test_every_variant_and_long_names_still_fit_two_grids_on_the_first_page(pdf_text, pdf_pages):
    from referee.engine.rules import DEFAULT, OPTIONS

    options = {name: next(c for c in o.choices if c != getattr(DEFAULT, name)) for name, o in OPTIONS.items()}
    document = make_blank_document(32, best_of=3, rules={"preset": "regulamento-tecnico", "options": options})
    document["teams"][0]["name"] = "Os Trucadores Invencíveis da Vila São João do Meio " * 2
    document["teams"][1]["club"] = "Grêmio Recreativo e Cultural dos Amigos do Truco de Pirapora do Bom Jesus"
    data = pdf.render_blank(document)
    assert pdf_pages(data) == 2
    first = pdf_text(data).split("\f")[0]
    assert "Partida 1" in first and "Partida 2" in first and "placar sem limite de 12" in flat(first)
    numbers = [int(n) for line in re.findall(r"^[ \d]+$", first, re.M) for n in line.split()]
    rows = max(numbers)  # fewer rows as the variants lengthen the header (pdf_sheets._blank_rows), both grids whole
    assert 16 <= rows < pdf_sheets.BLANK_ROWS and numbers.count(rows) == 2
