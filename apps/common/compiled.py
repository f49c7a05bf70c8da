"""Querysets compiled to SQL once per process, for the few hot reads whose ORM compilation costs more than running them.

Building and compiling the quiz's question query (a join of five tables, three subqueries) took 8 ms of Python per
request here; PostgreSQL ran it in under 1 ms. A CompiledQuery builds its queryset once, with a placeholder for
each argument, and keeps the SQL and what Django's ModelIterable needs to turn rows into instances (the selected
columns, select_related's populators, the annotations' columns); each call runs that SQL with the arguments in
the placeholders' places. Instances come out as the queryset's own iteration gives them: same fields, related
objects and annotations, through the fields' converters.

The queryset's shape must not depend on its arguments: each one must reach the SQL as a parameter, unchanged
(an id, a string compared for equality), not decide which SQL is written (None, an empty list, a LIKE pattern). An
int beyond its column's range finds nothing, as the ORM's equality finds nothing.
Arguments are ints or strings, of their placeholder's type. The first call builds the queryset twice, with the
placeholders and with other values, and refuses one whose SQL differs, whose parameters differ elsewhere (a constant
equal to a placeholder), or that leaves a placeholder out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from django.core.exceptions import EmptyResultSet
from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import ModelIterable, get_related_populators

M = TypeVar("M", bound=Model)


class PlaceholderError(TypeError):
    pass


_BOUNDS = {"Int2": 2**15, "Int4": 2**31, "Int8": 2**63}  # psycopg's types of int parameters; a bare int: bigint


@dataclass(frozen=True)
class _Plan:
    sql: str
    params: tuple[Any, ...]
    slots: tuple[tuple[int, str, type], ...]  # (index in params, argument name, parameter type)
    model: type[Model]
    init_list: tuple[str, ...]
    model_slice: slice
    populators: tuple[Any, ...]
    annotations: tuple[tuple[str, int], ...]
    converters: dict[int, tuple[list, Any]]


class CompiledQuery(Generic[M]):
    def __init__(self, build: Callable[..., QuerySet[M]], *, using: str = "default", **placeholders: int | str) -> None:
        """`build(**arguments)` returns the queryset; `placeholders` gives each argument a sample value of its type,
        one in the field's range (Django writes no SQL for an id of -1) that no constant of the query equals."""
        for name, value in placeholders.items():
            if type(value) not in (int, str):
                raise PlaceholderError(f"placeholder {name}={value!r} is neither an int nor a str")
        if len(set(placeholders.values())) < len(placeholders):
            raise PlaceholderError("two placeholders have the same value")
        self._build = build
        self._using = using
        self._placeholders = placeholders
        self._plan: _Plan | None = None
        self._lock = threading.Lock()

    def __call__(self, **arguments: Any) -> list[M]:
        plan = self._plan or self._compile()
        if arguments.keys() != self._placeholders.keys():
            raise PlaceholderError(f"arguments {sorted(arguments)} are not {sorted(self._placeholders)}")
        for name, value in arguments.items():
            if type(value) is not type(self._placeholders[name]):
                raise PlaceholderError(f"{name}={value!r} is not a {type(self._placeholders[name]).__name__}")
        params = list(plan.params)
        for index, name, kind in plan.slots:
            value = arguments[name]
            if not _fits(value, kind):
                return []
            params[index] = kind(value)
        connection = connections[self._using]
        with connection.cursor() as cursor:
            cursor.execute(plan.sql, params)
            rows = cursor.fetchall()
        return [self._instance(plan, row, connection) for row in rows]

    def first(self, **arguments: Any) -> M | None:
        found = self(**arguments)
        return found[0] if found else None

    def _instance(self, plan: _Plan, row: tuple, connection) -> M:
        if plan.converters:
            row = list(row)
            for position, (converters, expression) in plan.converters.items():
                for converter in converters:
                    row[position] = converter(row[position], expression, connection)
        instance = plan.model.from_db(self._using, plan.init_list, row[plan.model_slice])
        for populator in plan.populators:
            populator.populate(row, instance)
        for name, position in plan.annotations:
            setattr(instance, name, row[position])
        return instance

    def _compile(self) -> _Plan:
        with self._lock:
            if self._plan is None:
                plan = self._plan_of(self._build(**self._placeholders))
                others = {name: _other(value) for name, value in self._placeholders.items()}
                sql, params = self._build(**others).query.get_compiler(using=self._using).as_sql()
                expected = list(plan.params)
                for index, name, kind in plan.slots:
                    expected[index] = kind(others[name])
                if sql != plan.sql or list(params) != expected:
                    raise PlaceholderError(
                        "the query changes with its arguments' values, or a constant of it equals a placeholder"
                    )
                self._plan = plan
            return self._plan

    def _plan_of(self, queryset: QuerySet[M]) -> _Plan:
        plain = queryset._iterable_class is ModelIterable
        if queryset._prefetch_related_lookups or queryset._known_related_objects or not plain:
            raise PlaceholderError("only a plain queryset of instances compiles (no prefetch_related, values())")
        compiler = queryset.query.get_compiler(using=self._using)
        try:
            sql, params = compiler.as_sql()
        except EmptyResultSet:
            raise PlaceholderError(
                "the query is empty for the placeholders: is one out of its field's range?"
            ) from None
        slots = []
        for index, param in enumerate(params):
            for name, placeholder in self._placeholders.items():
                # The backend may wrap a value in a type of the column's (psycopg's Int2, a subclass of int).
                if isinstance(param, type(placeholder)) and param == placeholder:
                    slots.append((index, name, type(param)))
        missing = self._placeholders.keys() - {name for _index, name, _kind in slots}
        if missing:
            raise PlaceholderError(f"placeholders not among the query's parameters: {sorted(missing)}")
        select, klass_info = compiler.select, compiler.klass_info
        fields = klass_info["select_fields"]
        model_slice = slice(fields[0], fields[-1] + 1)
        return _Plan(
            sql=sql,
            params=tuple(params),
            slots=tuple(slots),
            model=klass_info["model"],
            init_list=tuple(column[0].target.attname for column in select[model_slice]),
            model_slice=model_slice,
            populators=tuple(get_related_populators(klass_info, select, self._using)),
            annotations=tuple(compiler.annotation_col_map.items()),
            converters=compiler.get_converters([column[0] for column in select[: compiler.col_count]]),
        )


def _other(value: int | str) -> int | str:
    return value - 1 if isinstance(value, int) else value + "~"


def _fits(value: int | str, kind: type) -> bool:
    """Whether psycopg can send `value` as `kind`: it refuses an int too big for the column's type (Int2, Int4), or
    wraps it round. The ORM writes no SQL for such a value and finds nothing (a number in an address, say
    /quiz/99999999999/), and so does a CompiledQuery."""
    bound = _BOUNDS.get(kind.__name__, 2**63)
    return type(value) is not int or -bound <= value < bound
