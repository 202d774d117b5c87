"""Statements of the hot path compiled by the ORM once per database connection, then run with new values.

Compiling a queryset or an insert (the columns, the joins of ``select_related``, the locking clause,
the placeholders) costs more Python than PostgreSQL takes to run it: ~0.3 to 1 ms against ~0.1 ms.
A table entering a hand (issue 10 §4) pays that on every request for the same few statements, so:

- :class:`CompiledSelect` builds a queryset once per connection with a marker value, keeps its SQL,
  converters and row-to-model plan, and on each call runs the SQL with the real value, building the
  instance (with its ``select_related`` ones and annotations) the way the queryset would
  (``ModelIterable``). Only a queryset whose one parameter is that value may be compiled (anything
  else is refused when first built), so the SQL cannot silently keep a stale value;
- :class:`CompiledInsert` is ``Model.objects.create(**values)`` with the INSERT's SQL kept: the
  values are prepared by each field as the ORM does (``pre_save``, ``get_db_prep_save``; also
  given alone, for a statement that inserts rows of several tables). It sends
  no ``pre_save``/``post_save`` signal, so it is for models that have no receiver (a test holds it
  for the models it is used on).
"""
from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet
from django.db.models.query import get_related_populators
from django.db.models.sql import InsertQuery


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


class CompiledInsert:
    """``CompiledInsert(Model).create(**values)``: the saved instance, as ``Model.objects.create``."""

    def __init__(self, model) -> None:
        self.model = model
        meta = model._meta
        self._fields = [f for f in meta.local_concrete_fields if f is not meta.auto_field and not f.generated]
        self._sql: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # per connection (thread)

    def _compiled(self, connection, sample) -> tuple[str, bool]:
        compiled = self._sql.get(connection)
        if compiled is None:
            query = InsertQuery(self.model)
            query.insert_values(self._fields, [sample])
            compiler = query.get_compiler(connection=connection)
            returning = connection.features.can_return_columns_from_insert
            compiler.returning_fields = self.model._meta.db_returning_fields if returning else None
            statements = compiler.as_sql()
            if len(statements) != 1:
                raise ValueError(f"CompiledInsert: {self.model.__name__} does not insert in one statement")
            compiled = self._sql[connection] = (statements[0][0], returning)
        return compiled

    def columns(self, connection) -> list[str]:
        """The quoted columns the INSERT fills, in the order of :meth:`params`."""
        return [connection.ops.quote_name(field.column) for field in self._fields]

    def params(self, instance, connection) -> list:
        """The values of ``instance`` as the INSERT sends them (each field's ``pre_save`` and
        ``get_db_prep_save``, as the ORM does)."""
        return [field.get_db_prep_save(field.pre_save(instance, True), connection=connection)
                for field in self._fields]

    def create(self, using: str = DEFAULT_DB_ALIAS, **values):
        connection = connections[using]
        instance = self.model(**values)
        sql, returning = self._compiled(connection, instance)
        params = self.params(instance, connection)
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            if returning:
                row = cursor.fetchone()
            else:
                meta = self.model._meta
                row = (connection.ops.last_insert_id(cursor, meta.db_table, meta.pk.column),)
        for field, value in zip(self.model._meta.db_returning_fields, row):
            setattr(instance, field.attname, value)
        instance._state.adding = False
        instance._state.db = using
        return instance
