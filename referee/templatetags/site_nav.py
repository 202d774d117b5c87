"""``{% site_nav %}``: the header's links for the signed-in user's roles (``referee.roles``), with
the count of what waits for them; one query per page, none for visitors."""
from django import template

from referee import roles

register = template.Library()


@register.inclusion_tag("_site_nav.html", takes_context=True)
def site_nav(context):
    request = context.get("request")
    user = getattr(request, "user", None)
    role = roles.summary(user) if user is not None else roles.NOBODY
    path = request.path if request is not None else ""
    return {"role": role, "user": user, "request": request, "path": path,
            "pending": role.organizer_pending + (role.calling or role.open_tables),
            "LANGUAGE_CODE": context.get("LANGUAGE_CODE"), "csrf_token": context.get("csrf_token")}
