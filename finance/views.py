"""The money pages: the organizer's ``/torneios/<slug>/painel/dinheiro/`` (the fees and the Pix
receiver, charge the pairs, who paid with a one-tap "paid", refunds, the prize table, the prizes
paid and the totals) and the player's ``/torneios/<slug>/duplas/<pair>/pagar/`` (the amount, the QR
and the "copia e cola" code). Thin: every rule, check and record is ``finance.services``."""
from __future__ import annotations

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_datetime
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.timezone import get_current_timezone, make_aware
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.errors import ServiceError
from events import access
from events.models import Pair
from scoring.pdf_sheets import qr_svg
from tournaments.view_helpers import tournament_of

from . import deadline, receipt, services
from .models import Change, Entry, FeeSettings, Movement, Payout, Prize


def _when(text: str):
    """A ``datetime-local`` field's value, in the site's time zone (empty: none)."""
    value = parse_datetime(text) if text else None
    if text and value is None:
        raise services.MoneyRefused(_("Not a date and time: %(value)s") % {"value": text}, "date")
    return make_aware(value, get_current_timezone()) if value and value.tzinfo is None else value


def _act(request, tournament):
    post, action = request.POST, request.POST.get("action")
    if action == "fees":
        services.set_fees(tournament, request.user, price=post.get("price"), late_price=post.get("late_price") or None,
                          early_until=_when(post.get("early_until", "")), pay_by=_when(post.get("pay_by", "")),
                          basis=post.get("basis", "pair"), pix_key=post.get("pix_key", ""),
                          pix_name=post.get("pix_name", ""), pix_city=post.get("pix_city", ""),
                          refund=post.get("refund", "full"), refund_percent=int(post.get("refund_percent") or 0),
                          pool_percent=post.get("pool_percent") or 0)
        return _("Fees saved.")
    if action == "charge":
        made = services.charge_pairs(tournament, request.user)
        return _("%(n)s pair(s) charged.") % {"n": len(made)}
    if action in ("paid", "refund"):
        entry = get_object_or_404(Entry, pk=post.get("entry") or 0, tournament=tournament)
        if action == "paid":
            done = services.mark_paid(entry, request.user)
            return (_("%(pair)s: paid.") if done else _("%(pair)s was already paid.")) % {"pair": entry.pair.name}
        done = services.refund_withdrawal(entry, request.user)
        return (_("%(pair)s: refund of R$ %(amount)s recorded.") % {"pair": entry.pair.name,
                                                                     "amount": number_format(done.amount, 2)}
                if done else _("%(pair)s: no refund due.") % {"pair": entry.pair.name})
    if action == "release":
        moved = deadline.release_unpaid(tournament, request.user)
        return (_("%(n)s unpaid pair(s) gave their place to the waiting list.") % {"n": len(moved)} if moved
                else _("Nobody is waiting: the unpaid pairs keep their places."))
    if action == "prize":
        services.set_prize(tournament, request.user, place=post.get("place"), money=post.get("money") or 0,
                           pool_percent=post.get("pool_percent") or 0, item=post.get("item", ""))
        return _("Prize table saved.")
    if action == "payout":
        pair = get_object_or_404(Pair, pk=post.get("pair") or 0, tournament=tournament)
        services.record_payout(tournament, request.user, pair=pair, place=int(post.get("place") or 0),
                               amount=post.get("amount") or 0, item=post.get("item", ""), paid_to=post.get("paid_to", ""))
        return _("%(pair)s: prize paid recorded.") % {"pair": pair.name}
    raise services.MoneyRefused(_("Unknown action."), "action")


@never_cache
@require_http_methods(["GET", "POST"])
def money(request, slug: str):
    tournament = tournament_of(slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not access.manages(request.user, tournament):
        raise PermissionDenied(_("Only the event's organizers see and touch its money."))
    status = 200
    if request.method == "POST":
        try:
            messages.success(request, _act(request, tournament))
            return redirect(reverse("finance:money", kwargs={"slug": slug}) + "#" + request.POST.get("action", ""))
        except ServiceError as error:
            messages.error(request, f"{error.field}: {error.message}" if error.field else error.message)
            status = error.status
        except ValueError:
            messages.error(request, _("A number was expected."))
            status = 400
    fees = FeeSettings.objects.filter(tournament=tournament).first()
    rows = services.lines(tournament)
    paid_out = {p.pair_id: p for p in Payout.objects.filter(tournament=tournament)}
    shares = services.prize_shares(tournament)
    names = dict(Pair.objects.filter(tournament=tournament).values_list("pk", "name"))
    return render(request, "finance/money.html", {
        "tournament": tournament, "fees": fees, "rows": rows, "books": services.statement(tournament, rows),
        "uncharged": Pair.objects.filter(tournament=tournament, entry__isnull=True)
                                 .exclude(status=Pair.Status.WITHDRAWN).count(),
        "prizes": list(Prize.objects.filter(tournament=tournament)), "next_place": 1 + max(
            Prize.objects.filter(tournament=tournament).values_list("place", flat=True), default=0),
        "shares": [{"share": s, "name": names.get(s.pair, ""), "paid": paid_out.get(s.pair),
                    "items": ", ".join(s.items)} for s in shares],
        "bases": FeeSettings.Basis.choices, "refunds": FeeSettings.Refund.choices, "history": history(tournament),
        "overdue": len(deadline.late(tournament)) if tournament.status in ("draft", "registration") else 0,
    }, status=status)


def history(tournament, size: int = 30) -> list[dict]:
    """The money's record, newest first: payments, refunds, prizes paid and changes of the settings."""
    rows = [{"at": m.at, "by": m.by, "what": m.get_kind_display(), "pair": m.entry.pair.name, "amount": m.amount}
            for m in Movement.objects.filter(entry__tournament=tournament).select_related("entry__pair", "by")
            .order_by("-at", "-pk")[:size]]
    rows += [{"at": p.at, "by": p.by, "what": _("Prize paid"), "pair": p.pair.name, "amount": p.amount}
             for p in Payout.objects.filter(tournament=tournament).select_related("pair", "by").order_by("-at")[:size]]
    rows += [{"at": c.at, "by": c.by, "what": c.get_what_display(), "pair": "", "amount": None}
             for c in Change.objects.filter(tournament=tournament).select_related("by").order_by("-at", "-pk")[:size]]
    return sorted(rows, key=lambda row: row["at"], reverse=True)[:size]


@never_cache
def pay(request, slug: str, pair: int):
    """The pair's Pix: public like the pair's page (the code only carries the organizer's key)."""
    tournament = tournament_of(slug)
    found = Pair.objects.filter(tournament=tournament, pk=pair).select_related("entry").first()
    entry = getattr(found, "entry", None) if found else None
    if entry is None:
        raise Http404(_("This pair has no fee to pay."))
    fees = FeeSettings.objects.get(tournament=tournament)
    got = services.paid(entry)
    code = services.brcode(entry, fees)
    return render(request, "finance/pay.html", {
        "tournament": tournament, "pair": found, "entry": entry, "fees": fees, "paid": got >= entry.amount,
        "owed": max(Decimal("0.00"), entry.amount - got), "code": code, "qr": mark_safe(qr_svg(code, 60)),  # noqa: S308 (our SVG)
        "pay_by": fees.pay_by, "withdrawn": found.status == Pair.Status.WITHDRAWN,
        "lost_place": found.withdrawal_reason == deadline.reason(),
        "receipt_code": receipt.code(entry) if got > 0 else "",
    })


@never_cache
def receipt_pdf(request, slug: str, pair: int):
    """The pair's receipt of payment (PDF): public like its payment page; none before a payment."""
    tournament = tournament_of(slug)
    entry = Entry.objects.filter(tournament=tournament, pair_id=pair).select_related(
        "pair__first_player", "pair__second_player", "pair__substitute", "tournament").first()
    if entry is None or services.paid(entry) <= 0:
        raise Http404(_("No payment recorded for this pair yet."))
    response = HttpResponse(receipt.pdf(entry, request), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="recibo-{entry.txid}.pdf"'
    return response
