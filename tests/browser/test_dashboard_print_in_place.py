"""The round's súmulas printed from the dashboard in place: the matches' "Imprimir súmulas" fold posts in the
background, the print job's card comes into the fold and follows the job while a worker prints it (printing's
status, polled), then offers its PDF in its own tab; the dashboard is never loaded again.

Screenshot: $TRUCO_SHOTS/dashboard-print-in-place.png (390×844, the PDF offered).
"""
from __future__ import annotations

import pytest

from .conftest import phone_context, shot, sign_in

pytestmark = pytest.mark.browser


def test_the_rounds_sumulas_are_printed_from_the_dashboard_without_leaving_it(
        live_server, browser, transactional_db, settings, monkeypatch):
    from playwright.sync_api import expect

    from printing import jobs
    from printing.models import PrintJob
    from tests.tournaments import factories as f
    from tests.tournaments import pages_fixtures as pf

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organizer = f.organizer("olga", password="truco-demo")
    t = pf.tournament(organizer, "copa", pairs=8)
    monkeypatch.setattr(jobs, "queue_job", lambda job_id: "")  # queued for a worker that has not taken it yet
    page = phone_context(browser).new_page()
    sign_in(page, live_server.url, "olga")
    page.goto(f"{live_server.url}/torneios/{t.slug}/painel/")
    loads = []
    page.on("request", lambda r: loads.append(r.url) if r.is_navigation_request() and r.frame == page.main_frame
            else None)

    page.get_by_test_id("print-fold").click()
    page.get_by_test_id("print-form").locator("button[name=kind][value=filled]").click()
    card = page.locator("#matches #print-job")
    expect(card).to_contain_text("0 de 4")  # the job's card, in place, waiting for its worker
    expect(card.locator("#print-download")).to_be_hidden()
    job = PrintJob.objects.get()
    assert (job.kind, job.round.number, job.status) == ("filled", 1, "queued")
    jobs.run_print_job(job.pk)  # the worker prints it
    opened = page.locator("#matches #print-download a")
    expect(opened).to_be_visible()  # followed by the dashboard: the PDF offered
    expect(opened).to_be_focused()
    expect(opened).to_have_attribute("target", "_blank")
    expect(page.locator("#matches #print-job")).to_contain_text("4 de 4")
    shot(page, "dashboard-print-in-place.png")
    assert loads == [], loads  # never left the dashboard
    page.context.close()
