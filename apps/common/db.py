"""Small PostgreSQL helpers the ORM does not offer."""

from __future__ import annotations

import functools
import re

from django.db import connection, models, transaction
from psycopg import sql

# The first key of the two-key pg_advisory_xact_lock, so per-student locks share no space with others.
_STUDENT_LOCK_CLASS = 7468
_NAME_LOCK_CLASS = 7469

_INSERT_UNLESS_EXISTS = (
    "INSERT INTO {table} ({columns}) VALUES ({values}) ON CONFLICT ({conflict}) DO NOTHING RETURNING {key}"
)


@functools.cache
def _insert_unless_exists(model: type[models.Model], conflict: tuple[str, ...]) -> str:
    # Once per model: composing it took 0.4 ms of each answer's POST.
    meta, quote = model._meta, connection.ops.quote_name
    return _INSERT_UNLESS_EXISTS.format(
        table=quote(meta.db_table),
        columns=", ".join(quote(f.column) for f in _inserted(model)),
        values=", ".join(["%s"] * len(_inserted(model))),
        conflict=", ".join(quote(meta.get_field(name).column) for name in conflict),
        key=quote(meta.pk.column),
    )


def _inserted(model: type[models.Model]) -> list[models.Field]:
    return [f for f in model._meta.concrete_fields if not f.primary_key]


def insert_unless_exists(obj: models.Model, *, conflict: tuple[str, ...]) -> bool:
    """INSERT ... ON CONFLICT (conflict) DO NOTHING RETURNING id, in one round trip.

    Sets obj.pk and returns True when the row was inserted, False when one already stood there.
    (bulk_create(ignore_conflicts=True) cannot say which, nor give back the key.)
    """
    fields = _inserted(type(obj))
    for field in fields:
        field.pre_save(obj, add=True)
    statement = _insert_unless_exists(type(obj), conflict)
    values = [f.get_db_prep_save(getattr(obj, f.attname), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(statement, values)
        row = cursor.fetchone()
    if row is None:
        return False
    obj.pk = row[0]
    obj._state.adding = False
    return True


_ROWS_UPDATE = sql.SQL("UPDATE {table} SET {sets} FROM unnest({arrays}) AS d({columns}) WHERE {table}.{key} = d.{key}")


def _unsized(db_type: str) -> str:
    # varchar(10) cast explicitly cuts a longer text short, silently; cast to varchar, the column refuses it.
    return re.sub(r"\([^)]*\)", "", db_type)


def rows_update(objs: list[models.Model], fields: list[str]) -> None:
    """bulk_update in one statement of one array a field: Django's CASE WHEN for each row and field takes seconds
    of Python for a few thousand rows (a regrade), this a few milliseconds."""
    if not objs:
        return
    meta = objs[0]._meta
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    statement = _ROWS_UPDATE.format(
        table=sql.Identifier(meta.db_table),
        key=sql.Identifier(meta.pk.column),
        sets=sql.SQL(", ").join(sql.SQL("{0} = d.{0}").format(sql.Identifier(f.column)) for f in columns[1:]),
        arrays=sql.SQL(", ").join(
            sql.SQL("{}::{}[]").format(sql.Placeholder(), sql.SQL(_unsized(f.db_type(connection)))) for f in columns
        ),
        columns=sql.SQL(", ").join(sql.Identifier(f.column) for f in columns),
    )
    values = [[f.get_db_prep_save(getattr(obj, f.attname), connection) for obj in objs] for f in columns]
    with connection.cursor() as cursor:
        cursor.execute(statement, values)


def student_lock(*user_ids: int) -> None:
    """Serialises these students' writes to answers and totals until the transaction ends.

    Taken by an answer or override (two tabs, double submits) and by a cohort join or removal,
    so an answer and a membership change of the same student never both count the same answer.
    Several students are locked in id order, so two such calls cannot deadlock.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_advisory_xact_lock(%s, u) FROM unnest(%s::int[]) AS u ORDER BY u",
            [_STUDENT_LOCK_CLASS, list(user_ids)],
        )


def name_lock(name: str) -> None:
    """Serialises work on one named thing (a deck slug) until the transaction ends, even before it has a row."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", [_NAME_LOCK_CLASS, name])


def rollback_dry_run() -> None:
    """Ends a dry run inside atomic(): deferred constraints are checked first, so it fails where a real run would."""
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    transaction.set_rollback(True)
