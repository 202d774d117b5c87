"""Pagination of the API's lists: whole unless the client asks ``?limit=&offset=`` (at most 500).

Without ``limit`` (or with one that is not a positive integer) a list answers as a JSON array of
every row; with it, one page in DRF's envelope ``{"count", "next", "previous", "results"}``. The
OpenAPI schema says both (drf-spectacular asks :meth:`get_paginated_response_schema`): the list's
answer is ``oneOf`` the array and the envelope, and ``limit``/``offset`` are documented on every
paginated list. A view whose answer is a list that is never paginated (a write answering the rows
it changed) sets ``pagination_class = None``.
"""
from rest_framework.pagination import LimitOffsetPagination


class OptionalLimitOffset(LimitOffsetPagination):
    default_limit = None
    max_limit = 500
    limit_query_description = (f"Answer one page of at most this many rows (1 to {max_limit}), in an envelope "
                                "with `count`, `next`, `previous` and `results`. Without it: every row, as an array.")
    offset_query_description = "Rows skipped before the page (with `limit`; default 0)."

    def get_paginated_response_schema(self, schema):
        envelope = super().get_paginated_response_schema(schema)
        envelope["description"] = "One page (the request gave `limit`)."
        return {"oneOf": [{**schema, "description": "Every row (the request gave no `limit`)."}, envelope]}

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        parameters[0]["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_limit}
        parameters[1]["schema"] = {"type": "integer", "minimum": 0}
        return parameters
