"""Pagination of the API's lists: whole unless the client asks ``?limit=&offset=`` (at most 500).

Without ``limit`` a list answers as a JSON array of every row; with it, one page in DRF's envelope
``{"count", "next", "previous", "results"}``. A ``limit`` that is not a whole number from 1 to 500, or an
``offset`` that is not one from 0, is refused (400, naming the parameter) as the schema says, instead of
being read as no limit or offset 0. The
OpenAPI schema says both (drf-spectacular asks :meth:`get_paginated_response_schema`): the list's
answer is ``oneOf`` the array and the envelope, and ``limit``/``offset`` are documented on every
paginated list. A view whose answer is a list that is never paginated (a write answering the rows
it changed) sets ``pagination_class = None``.
"""
from django.utils.translation import gettext as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination


def _whole(raw: str, lowest: int, highest: int | None) -> int | None:
    """``raw`` as a whole number within ``lowest``..``highest``, else None."""
    raw = raw.strip()
    if not raw.isdigit() or not raw.isascii():
        return None
    value = int(raw)
    return value if value >= lowest and (highest is None or value <= highest) else None


class OptionalLimitOffset(LimitOffsetPagination):
    default_limit = None
    max_limit = 500
    limit_query_description = (f"Answer one page of at most this many rows (1 to {max_limit}), in an envelope "
                                "with `count`, `next`, `previous` and `results`. Without it: every row, as an array.")
    offset_query_description = "Rows skipped before the page (with `limit`; default 0)."

    def paginate_queryset(self, queryset, request, view=None):
        limit = request.query_params.get(self.limit_query_param)
        if limit is not None and _whole(limit, 1, self.max_limit) is None:
            raise ValidationError({self.limit_query_param: _("Give limit as a whole number from 1 to %(most)s.")
                                   % {"most": self.max_limit}})
        offset = request.query_params.get(self.offset_query_param)
        if offset is not None and _whole(offset, 0, None) is None:
            raise ValidationError({self.offset_query_param: _("Give offset as a whole number from 0.")})
        return super().paginate_queryset(queryset, request, view)

    def get_paginated_response_schema(self, schema):
        envelope = super().get_paginated_response_schema(schema)
        envelope["description"] = "One page (the request gave `limit`)."
        return {"oneOf": [{**schema, "description": "Every row (the request gave no `limit`)."}, envelope]}

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        parameters[0]["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_limit}
        parameters[1]["schema"] = {"type": "integer", "minimum": 0}
        return parameters
