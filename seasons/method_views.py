"""The site's rating method (docs/ratings.md): ``/ratings/metodo/``, a site operator's page (one rating
list for every organizer, so not a tournament's option). Thin: the rule and the write are
``services.ratings`` (``may_choose_method``, ``choose_method``); a refusal is shown on the page."""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from config.errors import ServiceError
from draw.pairing.ratings import METHODS

from .models import RatingMethodChoice
from .services import ratings

METHOD_NAMES = {
    "match": gettext_lazy("Match result (win or loss)"),
    "margin": gettext_lazy("Match result with the margin in tentos"),
    "hands": gettext_lazy("Match result weighted by the tentos won hand by hand"),
}


@never_cache
@require_http_methods(["GET", "POST"])
def rating_method_page(request):
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    if not ratings.may_choose_method(request.user):
        raise PermissionDenied(_("Only a site operator chooses the rating method: the ratings are one list for "
                                 "every organizer."))
    status = 200
    if request.method == "POST":
        try:
            changed = ratings.choose_method(request.user, request.POST.get("method", ""),
                                            current=request.POST.get("current", ""))
        except ServiceError as error:
            messages.error(request, error.message)
            status = error.status
        else:
            if changed:
                messages.success(request, _("Rating method changed: every official match is being rated again."))
            else:
                messages.info(request, _("This already is the rating method: nothing changed."))
            return redirect("seasons:rating-method")
    current = ratings.rating_method()
    history = list(RatingMethodChoice.objects.select_related("chosen_by")[:20])
    for row in history:
        row.label, row.previous_label = METHOD_NAMES.get(row.method, row.method), METHOD_NAMES.get(row.previous,
                                                                                                  row.previous)
    return render(request, "seasons/rating_method.html", {
        "current": current, "methods": [(m, METHOD_NAMES[m]) for m in METHODS], "history": history,
    }, status=status)
