"""Helpers for forms shared across apps."""

from __future__ import annotations

from django import forms


def focus_first_error(form: forms.BaseForm) -> None:
    """A form sent back with errors opens on the first field in error, not on the field Django autofocuses (the
    user name of a sign-up whose passwords did not match)."""
    invalid = next((name for name in form.fields if name in form.errors), None)
    if invalid is None:
        return  # only errors of the whole form ("wrong user name or password"): the first field is right
    for field in form.fields.values():
        field.widget.attrs.pop("autofocus", None)
    form.fields[invalid].widget.attrs["autofocus"] = True
