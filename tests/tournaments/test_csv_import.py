"""Registering pairs from a CSV (tournaments.csv_import): encodings, separators, headers,
bad rows reported with row, column and reason, all-or-nothing or the good rows only."""
import io

import pytest

from tests.tournaments import factories as f
from tests.tournaments.factories import english  # noqa: F401 (autouse fixture)
from tournaments import services
from tournaments.csv_import import import_pairs
from tournaments.models import AuditEntry, Pair, Player

pytestmark = pytest.mark.django_db

HEADER = "pair,player 1,nickname 1,club 1,contact 1,player 2,nickname 2,club 2,contact 2,substitute\n"
GOOD = HEADER + (
    "Os Zaps,Ana Souza,Aninha,AABB,11 9999-0001,Bia Lima,,AABB,,\n"
    "Copas de Ouro,Caio Reis,,Vila Maria,,Duda Melo,Dudinha,,,Zé Tavares\n"
)


def test_comma_separated_utf8(t, org):
    report = import_pairs(t, GOOD.encode(), org)
    assert report.ok and report.rows == 2 and [p.name for p in report.created] == ["Os Zaps", "Copas de Ouro"]
    zaps = Pair.objects.get(name="Os Zaps")
    assert (zaps.first_player.nickname, zaps.first_player.club.name, zaps.first_player.contact) == (
        "Aninha", "AABB", "11 9999-0001")
    assert Pair.objects.get(name="Copas de Ouro").substitute.name == "Zé Tavares"
    entry = AuditEntry.objects.get(action="pairs_imported")
    assert entry.after["created"] == [p.pk for p in report.created]


def test_semicolon_with_bom_and_portuguese_headers(t, org):
    text = ("\ufeffDupla;Jogador 1;Apelido 1;Clube 1;Contato 1;Jogador 2;Apelido 2;Clube 2;Contato 2;Reserva;"
            "Cabeça de chave;Rating\n"
            "Mão de Onze;João Batista;Joãozinho;Clube Recreativo;;Antônio Souza;Toninho;;;;1;1500\n"
            '"Truco; Ladrão";Fernanda;;;;Patrícia;;;;;2;\n')
    report = import_pairs(t, text.encode("utf-8"), org)
    assert report.ok, report.errors
    pair = Pair.objects.get(name="Mão de Onze")
    assert (pair.first_player.name, pair.seed, pair.rating) == ("João Batista", 1, 1500)
    assert Pair.objects.get(name="Truco; Ladrão").seed == 2


def test_a_file_object_and_text_are_accepted(t, org):
    assert import_pairs(t, io.BytesIO(GOOD.encode()), org).ok
    other = f.tournament(org, slug="outra")
    asked = import_pairs(other, GOOD, org)  # the same names again: asked about, nothing written
    assert not asked.ok and "same person" in asked.errors[0].message
    assert import_pairs(other, GOOD, org, namesakes="reuse").ok
    first, again = (Pair.objects.get(tournament=x, name="Os Zaps") for x in (t, other))
    assert first.first_player == again.first_player  # the same people, not doubles


def test_bad_rows_are_reported_and_nothing_is_imported_by_default(t, org):
    f.pairs(t, 1)  # "P1"
    text = HEADER + (
        "Boa,Ana,,,,Bia,,,,\n"             # row 2: good
        ",Caio,,,,Duda,,,,\n"              # row 3: no pair name
        "P1,Edu,,,,Fábio,,,,\n"            # row 4: name taken in the tournament
        "Dupla,Gil,,,,,,,,\n"              # row 5: no second player
        "Boa,Hugo,,,,Iara,,,,\n"           # row 6: name repeated in the file
        "\n"                               # row 7: blank, skipped
        "Mesma,Juca,,,,Juca,,,,\n"         # row 8: same player twice? homonyms are allowed
        "Longa," + "x" * 121 + ",,,,Lia,,,,\n"   # row 9: name too long
    )
    report = import_pairs(t, text.encode(), org)
    assert [(e.row, e.column) for e in report.errors] == [
        (3, "pair"), (4, "pair"), (5, "player 2"), (6, "pair"), (9, "player 1")]
    assert "already has a pair named P1" in report.errors[1].message
    assert report.rows == 7 and report.created == []
    assert Pair.objects.filter(tournament=t).count() == 1
    assert not AuditEntry.objects.filter(action="pairs_imported").exists()


def test_valid_rows_mode_imports_the_good_rows(t, org):
    text = HEADER + "Boa,Ana,,,,Bia,,,,\n,Caio,,,,Duda,,,,\nOutra,Edu,,,,Fábio,,,,\n"
    report = import_pairs(t, text.encode(), org, mode="valid_rows")
    assert [e.row for e in report.errors] == [3]
    assert [p.name for p in report.created] == ["Boa", "Outra"]
    assert AuditEntry.objects.get(action="pairs_imported").after["bad_rows"] == [3]


def test_rating_and_seed_must_be_whole_numbers_and_seeds_unique(t, org):
    text = ("pair,player 1,player 2,rating,seed\n"
            "A,Ana,Bia,mil,1\n"
            "B,Caio,Duda,1500,1\n"
            "C,Edu,Fábio,-3,\n")
    report = import_pairs(t, text.encode(), org, mode="valid_rows")
    assert [(e.row, e.column) for e in report.errors] == [(2, "rating"), (4, "rating")]
    assert [p.seed for p in report.created] == [1]


def test_the_same_person_in_two_rows_is_reported(t, org):
    text = ("pair,player 1,contact 1,player 2\n"
            "A,Ana,ana@x.br,Bia\n"
            "B,ana,ana@x.br,Caio\n")
    report = import_pairs(t, text.encode(), org)
    assert [(e.row, e.column) for e in report.errors] == [(3, "player 1")]
    assert "row 2" in report.errors[0].message


def test_a_player_already_in_another_pair_is_reported(t, org):
    services.register_pair(t, org, name="X", first_player={"name": "Ana", "contact": "ana@x.br"},
                           second_player={"name": "Bia"})
    report = import_pairs(t, b"pair,player 1,contact 1,player 2\nA,Ana,ana@x.br,Caio\n", org)
    assert [(e.row, e.column) for e in report.errors] == [(2, "player 1")]


def test_header_problems_stop_the_import(t, org):
    report = import_pairs(t, b"pair,player one,player 2,colour\nA,Ana,Bia,red\n", org)
    assert {(e.row, e.column) for e in report.errors} == {(1, "player one"), (1, "colour"), (1, "player 1")}
    assert not Pair.objects.exists()
    report = import_pairs(t, b"", org)
    assert report.errors[0].row == 1
    report = import_pairs(t, b"pair,pair,player 1,player 2\n", org)
    assert report.errors[0].message == "This column appears twice."


def test_excel_br_cp1252_with_semicolons_is_read_as_it_is(t, org):
    """Excel pt-BR's "CSV (separado por vírgulas)": Windows-1252 and ';', real bytes."""
    data = b"Dupla;Jogador 1;Jogador 2\r\nOs \xc1ses;\xc9dson Ara\xfajo;Jo\xe3o\r\nMeio-Sab\xe3o;Z\xe9;Concei\xe7\xe3o\r\n"
    assert data.decode("cp1252").startswith("Dupla;")  # the file as Excel writes it
    report = import_pairs(t, data, org)
    assert report.ok, report.errors
    pair = Pair.objects.get(name="Os Áses")
    assert (pair.first_player.name, pair.second_player.name) == ("Édson Araújo", "João")
    assert Pair.objects.get(name="Meio-Sabão").second_player.name == "Conceição"


def test_utf8_with_bom_and_semicolons_keeps_the_accents(t, org):
    data = "Dupla;Jogador 1;Jogador 2\r\nOs Áses;Édson;João\r\n".encode("utf-8-sig")
    assert data.startswith(b"\xef\xbb\xbf")
    report = import_pairs(t, data, org)
    assert report.ok and Pair.objects.get(name="Os Áses").first_player.name == "Édson"


def test_tab_separated(t, org):
    assert import_pairs(t, "Dupla\tJogador 1\tJogador 2\nOs Zaps\tAna\tBia\n".encode(), org).ok


def test_a_file_in_neither_encoding_is_reported_with_its_line(t, org):
    data = (HEADER + "Boa,Ana,,,,Bia,,,,\n").encode() + b"M\x81,Jo\x8fo,,,,Z\xe9,,,,\n"  # 0x81, 0x8f: not cp1252
    report = import_pairs(t, data, org)
    assert report.errors[0].row == 3 and "Windows-1252" in report.errors[0].message
    marked = b"\xef\xbb\xbf" + (HEADER + "Boa,Ana,,,,Bia,,,,\n").encode() + b"M\xe1,Jo\xe3o,,,,Z\xe9,,,,\n"
    report = import_pairs(t, marked, org)  # the mark says UTF-8: not silently read as cp1252
    assert report.errors[0].row == 3 and "UTF-8" in report.errors[0].message
    assert not Pair.objects.exists()


def test_extra_cells_and_quoted_newlines(t, org):
    text = 'pair,player 1,player 2\n"Dupla\nQuebrada",Ana,Bia\nB,Caio,Duda,extra\nC,Edu,Fábio\n'
    report = import_pairs(t, text.encode(), org, mode="valid_rows")
    assert [(e.row, e.column) for e in report.errors] == [(4, "")]
    assert [p.name for p in report.created] == ["Dupla Quebrada", "C"]


def test_only_the_organizer_imports_and_only_while_registration_is_open(t, org):
    with pytest.raises(services.Forbidden):
        import_pairs(t, GOOD.encode(), f.user("x"))
    with pytest.raises(services.TournamentError) as error:
        import_pairs(t, GOOD.encode(), org, mode="some")
    assert error.value.field == "mode"
    t.status = "finished"
    t.save()
    with pytest.raises(services.Conflict):
        import_pairs(t, GOOD.encode(), org)
    assert Player.objects.count() == 0
