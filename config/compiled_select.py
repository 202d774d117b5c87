"""SELECTs of the hot path compiled by the ORM once per database connection, then run with new values.

Compiling a queryset (the columns, the joins of ``select_related``, the locking clause) costs more
Python than PostgreSQL takes to run it: ~0.3 to 1 ms against ~0.1 ms. A table entering a hand
(issue 10 §4) pays that on every request for the same two lookups (its link by token, the match
locked by id), so :class:`CompiledSelect` builds the queryset once per connection with a marker
value, keeps its SQL, converters and row-to-model plan, and on each call runs the SQL with the real
value, building the instance (with its ``select_related`` ones and annotations) the way the
queryset would (``ModelIterable``). Only a queryset whose one parameter is that value may be compiled (anything
else is refused when first built), so the SQL cannot silently keep a stale value.
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators


class CompiledSelect:
    """``CompiledSelect(lambda value: Model.objects.filter(field=value)[:1], marker)``; ``.first(value)`` is
    the first instance or None. ``marker``: a value of the parameter's type, used only to compile."""

    def __init__(self, build: Callable[[Any], QuerySet], marker: Any) -> None:
        self._build = build
        self._marker = marker
        self._plans: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per connection (thread)

    def _plan(self, connection, using: str):
        plan = self._plans.get(connection)
        if plan is None:
            queryset = self._build(self._marker)
            compiler = queryset.query.get_compiler(using=using)
            sql, params = compiler.as_sql()
            if list(params) != [self._marker]:
                raise ValueError(f"CompiledSelect takes a queryset with one parameter, its value: got {params!r}")
            select, klass_info = compiler.select, compiler.klass_info
            fields = klass_info["select_fields"]
            start, end = fields[0], fields[-1] + 1
            plan = (sql, klass_info["model"], start, end,
                    [column[0].target.attname for column in select[start:end]],
                    get_related_populators(klass_info, select, using),
                    list(compiler.get_converters([column[0] for column in select]).items()),
                    list((compiler.annotation_col_map or {}).items()))
            self._plans[connection] = plan
        return plan

    def first(self, value: Any, using: str = DEFAULT_DB_ALIAS):
        connection = connections[using]
        sql, model, start, end, names, related, converters, annotations = self._plan(connection, using)
        with connection.cursor() as cursor:
            cursor.execute(sql, [value])
            row = cursor.fetchone()
        if row is None:
            return None
        row = list(row)
        for position, (functions, expression) in converters:
            converted = row[position]
            for function in functions:
                converted = function(converted, expression, connection)
            row[position] = converted
        instance = model.from_db(using, names, row[start:end])
        for populator in related:
            populator.populate(row, instance)
        for name, position in annotations:
            setattr(instance, name, row[position])
        return instance
