"""Statements written once as plain SQL, their rows read into models with Django's public API
(issue 19 §1).

The requests a venue sends most (a table's next hand, a projector's refresh) run the same few
statements. Built by the ORM on every request, compiling them cost more Python than the database
took to run them (~0.3 to 2 ms against ~0.1 ms), so their callers write them here once, as plain
SQL, from the models' public ``_meta`` (table and column names), and this module runs them:

- :func:`statement` keeps a statement's text per database vendor, built once;
- :func:`read` turns the first row into a model instance as the ORM would: each column through
  its field's converters and the database's (``Field.get_db_converters``,
  ``DatabaseOperations.get_db_converters``: SQLite's timestamps are text, JSON is text), then
  ``Model.from_db``; a related object selected in the same row (columns aliased
  ``"<name>__<column>"``) becomes the instance's ``<name>``; any other column, an attribute;
- :func:`write` INSERTs new rows (each field's ``pre_save`` and ``get_db_prep_save``, as
  ``Model.save`` does) and runs UPDATEs, as one statement where the database takes them together
  (PostgreSQL's data-modifying ``WITH``), else one after the other, in order.

No private name of Django is used (``tests/test_architecture.py`` holds it).
"""
from __future__ import annotations

from collections.abc import Callable

from django.db import connection
from django.db.models.signals import post_save, pre_save

_STATEMENTS: dict[tuple[str, str], str] = {}
_PLANS: dict[tuple[str, str], tuple] = {}


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


def table(model) -> str:
    """The quoted table of ``model``."""
    return quote(model._meta.db_table)


def column(model, field: str) -> str:
    """The quoted column of ``model``'s field ``field``."""
    return quote(model._meta.get_field(field).column)


def statement(key: str, build: Callable[[], str]) -> str:
    """The statement ``key`` for this connection's database, built once by ``build``."""
    cache_key = (connection.vendor, key)
    sql = _STATEMENTS.get(cache_key)
    if sql is None:
        sql = _STATEMENTS[cache_key] = build()
    return sql


def for_update(of: str | None = None) -> str:
    """``FOR UPDATE [OF of]`` where the database locks rows (SQLite serializes writers instead)."""
    if not connection.features.has_select_for_update:
        return ""
    return f" FOR UPDATE OF {of}" if of and connection.features.has_select_for_update_of else " FOR UPDATE"


def _fields_at(model, columns: list[str], prefix: str = "") -> tuple[list, list, list]:
    """The attribute names of ``model``'s fields found in ``columns`` (as ``prefix + column``), in the
    model's order (``from_db`` takes them so), their positions, and their converters."""
    names, positions, converters = [], [], []
    for field in model._meta.concrete_fields:
        name = prefix + field.column
        if name not in columns:
            continue
        position = columns.index(name)
        names.append(field.attname)
        positions.append(position)
        col = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        if found:
            converters.append((position, found, col))
    return names, positions, converters


def _plan(key: str, model, related: dict, cursor) -> tuple:
    """How a row of statement ``key`` becomes a ``model`` (made from its first answer's columns, once)."""
    plan_key = (connection.vendor, key)
    plan = _PLANS.get(plan_key)
    if plan is None:
        columns = [d[0] for d in cursor.description]  # read once: the driver builds it on each access
        own = _fields_at(model, columns)
        others = [(name, other, _fields_at(other, columns, f"{name}__")) for name, other in related.items()]
        taken = {columns[p] for p in own[1]} | {columns[p] for *_x, fields in others for p in fields[1]}
        extra = [(name, position) for position, name in enumerate(columns) if name not in taken]
        plan = _PLANS[plan_key] = (own, others, extra)
    return plan


def _convert(row: list, converters: list) -> None:
    for position, functions, col in converters:
        for function in functions:
            row[position] = function(row[position], col, connection)


def read(key: str, model, build: Callable[[], str], params: list, related: dict | None = None):
    """The first row of statement ``key`` (built once by ``build``) as a ``model`` instance, or None.
    ``related`` maps a foreign key's name to its model, selected in the row as ``"<name>__<column>"``
    columns (a left join: all NULL when there is none)."""
    related = related or {}
    with connection.cursor() as cursor:
        cursor.execute(statement(key, build), params)
        row = cursor.fetchone()
        if row is None:
            return None
        (names, positions, converters), others, extra = _plan(key, model, related, cursor)
    row = list(row)
    _convert(row, converters)
    instance = model.from_db(connection.alias, names, [row[p] for p in positions])
    for name, other, (other_names, other_positions, other_converters) in others:
        values = [row[p] for p in other_positions]
        if all(value is None for value in values):
            continue
        _convert(row, other_converters)
        setattr(instance, name, other.from_db(connection.alias, other_names, [row[p] for p in other_positions]))
    for name, position in extra:
        setattr(instance, name, row[position])
    return instance


def _inserted_fields(model) -> list:
    return [f for f in model._meta.concrete_fields if not f.primary_key and not f.generated]


def _insert_sql(model) -> str:
    """The one INSERT of a ``model`` row, its id returned."""
    def build() -> str:
        fields = _inserted_fields(model)
        columns = ", ".join(quote(f.column) for f in fields)
        return (f"INSERT INTO {table(model)} ({columns}) VALUES ({', '.join(['%s'] * len(fields))}) "
                f"RETURNING {quote(model._meta.pk.column)}")

    return statement(f"insert:{model._meta.label}", build)


def _together() -> bool:
    """Whether the database runs INSERTs and UPDATEs as parts of one ``WITH`` statement (PostgreSQL's
    data-modifying common table expressions); elsewhere they run one after the other."""
    return connection.vendor == "postgresql"


def write(*rows, then: tuple[tuple[str, list], ...] = ()) -> tuple[list, list]:
    """INSERT each new ``row`` (of models without save signals), then run the statements ``then``
    (``(key, params)`` of statements kept by :func:`statement`: UPDATEs, or INSERTs of their own): one
    statement where the database takes them together, else one each, in order. The stored rows, as
    ``Model.objects.create`` gives them (with the related objects they were given), and the first
    value each ``then`` statement with ``RETURNING`` returned (None when it returned no row)."""
    for row in rows:
        model = type(row)
        if pre_save.has_listeners(model) or post_save.has_listeners(model):
            raise TypeError(f"plain_sql.write sends no save signal: {model.__name__} has receivers")
    values = [[field.pre_save(row, True) for field in _inserted_fields(type(row))] for row in rows]
    statements = [(_insert_sql(type(row)), [field.get_db_prep_save(value, connection=connection)
                                            for field, value in zip(_inserted_fields(type(row)), row_values)])
                  for row, row_values in zip(rows, values)]
    statements += [(_STATEMENTS[(connection.vendor, key)], params) for key, params in then]
    returning = [number for number, (sql, _p) in enumerate(statements) if " RETURNING " in sql]
    with connection.cursor() as cursor:
        if _together() and len(statements) > 1:
            key = "together:" + ",".join(type(row)._meta.label for row in rows) + ":" + ",".join(k for k, _p in then)
            cursor.execute(statement(key, lambda: _with([sql for sql, _p in statements], returning)),
                           [value for _sql, params in statements for value in params])
            returned = list(cursor.fetchone()) if returning else []
        else:
            returned = []
            for number, (sql, params) in enumerate(statements):
                cursor.execute(sql, params)
                if number in returning:
                    row = cursor.fetchone()
                    returned.append(row[0] if row else None)
    ids, results = returned[:len(rows)], returned[len(rows):]
    stored = []
    for row, pk, row_values in zip(rows, ids, values):
        model = type(row)
        fields = _inserted_fields(model)
        saved = model.from_db(connection.alias, [model._meta.pk.attname] + [f.attname for f in fields],
                              [pk, *row_values])
        for field in fields:  # the related objects the caller gave (hand.game, event.match): no query to reach them
            if field.is_relation and field.is_cached(row):
                setattr(saved, field.name, getattr(row, field.name))
        stored.append(saved)
    return stored, results


def _with(statements: list[str], returning: list[int]) -> str:
    parts = ", ".join(f"w{number} AS ({sql})" for number, sql in enumerate(statements))
    values = ", ".join(f"(SELECT * FROM w{number})" for number in returning) or "1"
    return f"WITH {parts} SELECT {values}"
