"""The admin's password change is the site's own (the same page and form): its old password counts towards the
sign-in lockout, where Django's admin view checked it with no limit."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.urls import reverse

from apps.common.http import require_page_or_form

from .views import PasswordChange


def _password_change(request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
    request.current_app = admin.site.name
    view = PasswordChange.as_view(success_url=reverse("admin:password_change_done"))
    return require_page_or_form(view)(request)


# Read when the admin's URLs are built (admin.site.urls), after autodiscover has imported this module.
admin.site.password_change = _password_change
