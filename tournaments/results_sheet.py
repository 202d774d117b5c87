"""The results sheet of a finished tournament, to print and pin up: the champion, every pair's place with
its players and why it is there (the final table, ``services.standings``: a knockout by its placings, the
organizer's decision of art. 26), the date, the venue and who organized it. One A4 PDF through WeasyPrint,
as the site's other PDFs; the dashboard's finished part links to it (organizer only, ``control_views``).
Reads only: nothing here changes a result.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.template.loader import get_template
from django.utils import timezone, translation

from .models import Pair, Tournament
from .services import standings


@dataclass(frozen=True)
class SheetLine:
    """One pair's line: its place ("3º"), shared or not, its name, its players and why it is there."""

    rank: int
    pair: str
    players: str
    why: str
    withdrawn: bool


def organizer_of(tournament: Tournament) -> str:
    """Who ran it, as the sheet signs it: the club or federation, else the organizer's name."""
    if tournament.organization_id:
        return tournament.organization.name
    user = tournament.organizer
    return (user.get_full_name() or user.get_username()) if user is not None else ""


def sheet_lines(tournament: Tournament) -> list[SheetLine]:
    """The final table in order, each pair with its players (withdrawn pairs last, as the table puts them)."""
    lines = standings(tournament).rows
    players = {pair.pk: pair for pair in Pair.objects.filter(pk__in=[line.pair.pk for line in lines])
               .select_related("first_player", "second_player")}
    return [SheetLine(line.rank, line.pair.name,
                      " / ".join(p.name for p in players[line.pair.pk].players) if line.pair.pk in players else "",
                      line.why, line.pair.status == Pair.Status.WITHDRAWN) for line in lines]


def sheet_context(tournament: Tournament) -> dict:
    lines = sheet_lines(tournament)
    champion = next((line for line in lines if line.rank == 1 and not line.withdrawn), None)
    return {"tournament": tournament, "lines": lines, "champion": champion,
            "finished": tournament.status == Tournament.Status.FINISHED,
            "organizer": organizer_of(tournament), "printed_at": timezone.localtime()}


def sheet_html(tournament: Tournament) -> str:
    with translation.override("pt-br"):
        return get_template("tournaments/results_sheet.html").render(sheet_context(tournament))


def sheet_pdf(tournament: Tournament) -> bytes:
    """The results sheet as an A4 PDF."""
    from weasyprint import HTML

    return HTML(string=sheet_html(tournament), base_url=str(settings.BASE_DIR)).write_pdf()
