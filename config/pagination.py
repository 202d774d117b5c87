"""Pagination of the API's lists: whole unless the client asks ``?limit=&offset=`` (at most 500)."""
from rest_framework.pagination import LimitOffsetPagination


class OptionalLimitOffset(LimitOffsetPagination):
    default_limit = None
    max_limit = 500
