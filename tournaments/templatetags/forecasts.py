"""``{% tables_freeing tournament playing_rows as rows %}``: the forecasts of the dashboard's matches in play
(``playing_rows``, those with a score: ``live_pages.live_scores``), the table that should free first first
(``tournaments.forecasts``), for the organizer's dashboard. No query when no table has scored yet; a fixed
number otherwise."""
from __future__ import annotations

from django import template

from tournaments import forecasts

register = template.Library()


@register.simple_tag
def tables_freeing(tournament, rows) -> list[forecasts.TableForecast]:
    matches = [row.match for row in rows or () if getattr(row, "live", "") or getattr(row, "live_games", "")]
    if not matches:
        return []
    return forecasts.soonest(forecasts.estimates(tournament.pk, matches))
