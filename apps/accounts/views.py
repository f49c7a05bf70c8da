from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import login, logout
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import (
    LoginView,
    LogoutView,
    PasswordChangeView,
    PasswordResetConfirmView,
    PasswordResetView,
)
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.text import slugify
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from apps.common.forms import focus_first_error
from apps.common.http import HttpResponseSeeOther, require_page_or_form
from apps.common.ratelimits import minutes_left

from .forms import AccountDeleteForm, CountedPasswordChangeForm, ProfileForm, QueuedPasswordResetForm, SignupForm
from .selectors import account_export, account_owned_cohorts, account_summary
from .services import (
    AccountError,
    account_create,
    account_delete,
    account_update,
    password_reset_pause,
    password_reset_refused,
    sign_in_address_pause,
    sign_in_name_pause,
    signup_pause,
    signup_refused,
)


class _RefusedIs422:
    """A form sent back with errors answers 422, as the site's other forms do, rather than Django's 200."""

    def form_invalid(self, form):
        focus_first_error(form)
        response = super().form_invalid(form)
        response.status_code = 422
        return response


class SignInView(_RefusedIs422, LoginView):
    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        if self.request.user.is_authenticated:
            # The page opens on whose session this is: focus in the form would skip past it to someone else's name.
            form.fields["username"].widget.attrs.pop("autofocus", None)
        return form

    def get_context_data(self, **kwargs) -> dict:
        # Signed in already (a stale link or tab), the page says as whom and offers the way on: where `next`
        # pointed, if it is on this site, else home.
        next_url = self.get_redirect_url()
        return super().get_context_data(
            continue_url=self.get_success_url(), next_needs_sign_in=_needs_sign_in(next_url), **kwargs
        )


def _needs_sign_in(path: str) -> bool:
    """Whether `path` is a page only signed-in users see (where login_required sent the visitor from), rather than
    the page the header's "Sign in" link was followed from."""
    try:
        view = resolve(urlsplit(path).path).func if path else None
    except Resolver404:
        return False
    return hasattr(view, "login_url")  # set by login_required (user_passes_test) on the view it wraps


class SignOutView(LogoutView):
    def post(self, request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        # On the page it lands on: the header alone changes too quietly to be sure the shared computer is safe.
        messages.success(request, "You have signed out.")
        return response


class PasswordChange(_RefusedIs422, PasswordChangeView):
    form_class = CountedPasswordChangeForm

    def get_form_kwargs(self) -> dict:
        return {**super().get_form_kwargs(), "request": self.request}


class PasswordResetConfirm(_RefusedIs422, PasswordResetConfirmView):
    pass


RESET_NEXT = "password_reset_next"


class _PasswordReset(_RefusedIs422, PasswordResetView):
    form_class = QueuedPasswordResetForm


def safe_next(request: HttpRequest, default: str = "/") -> str:
    """The `next` target if it is a path on this site, else `default`."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    # Only a path: redirect() takes a bare word such as "next=foo" for a view name and fails on it (a 500).
    if target.startswith("/") and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return default


@require_page_or_form
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        # Said, not a silent redirect home. A sign-up sent while signed in creates nothing: signing the new account
        # in would sign this one out unasked.
        next_url = safe_next(request, "")
        after_sign_out = reverse("signup") + (f"?{urlencode({'next': next_url})}" if next_url else "")
        context = {"continue_url": safe_next(request), "after_sign_out": after_sign_out}
        return render(request, "registration/signup.html", context)
    if signup_refused(request=request):
        return _rate_limited(request, "signup", signup_pause(request=request))
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = account_create(user=form.save(commit=False))
        except AccountError as exc:
            form.add_error(exc.field, str(exc))
        else:
            login(request, user, backend="apps.accounts.backends.CaseInsensitiveModelBackend")
            # Said on the page it lands on, as signing out is: otherwise only the header's new name shows it worked.
            messages.success(request, f"Your account is ready: you are signed in as {user.get_username()}.")
            return redirect(safe_next(request))
    status = 422 if request.method == "POST" else 200
    focus_first_error(form)
    return render(request, "registration/signup.html", {"form": form, "next": safe_next(request, "")}, status=status)


@require_page_or_form
def password_reset(request: HttpRequest) -> HttpResponse:
    """Django's reset form, limited per address and per email so it cannot be used to flood an inbox.

    The mail goes out in the background, so the answer takes as long whether the email has an account or not.
    """
    if password_reset_refused(request=request):
        return _rate_limited(request, "reset", password_reset_pause(request=request))
    if request.method == "GET" and (target := safe_next(request, default="")):
        # Where sign-in was to lead, kept for the "Sign in" of the page the emailed link ends on (in this browser).
        request.session[RESET_NEXT] = target
    return _PasswordReset.as_view()(request)


def _rate_limited(request: HttpRequest, limited: str, pause) -> HttpResponse:
    context = {"limited": limited, "minutes": minutes_left(pause)}
    return render(request, "registration/rate_limited.html", context, status=429)


def locked_out(request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the lockout page, saying which lock holds, a name here or the whole address.

    A student locked out with her name can still be told that others on her network can sign in; a class whose
    address is paused needs to hear that it is everyone's, and for how long.
    """
    address_pause = sign_in_address_pause(request=request)
    pause = address_pause if address_pause is not None else sign_in_name_pause(request=request, credentials=credentials)
    context = {"address": address_pause is not None, "minutes": minutes_left(pause)}
    return render(request, "registration/locked_out.html", context, status=429)


@login_required
@never_cache
@require_page_or_form
def account(request: HttpRequest) -> HttpResponse:
    form = ProfileForm(request.POST or None, instance=request.user, request=request)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                account_update(user=request.user, first_name=data["first_name"], last_name=data["last_name"],
                               email=data["email"])  # fmt: skip
            except AccountError as exc:
                form.add_error(exc.field, str(exc))
            else:
                messages.success(request, "Your details are saved.")
                return HttpResponseSeeOther(reverse("account"))
        focus_first_error(form)
    context = {"form": form, "summary": account_summary(user=request.user)}
    return render(request, "registration/account.html", context, status=422 if form.errors else 200)


@login_required
@never_cache  # personal data: no shared cache, and no copy left in the browser's
@require_safe
def account_download(request: HttpRequest) -> JsonResponse:
    data = account_export(user=request.user)
    response = JsonResponse(data, encoder=DjangoJSONEncoder, json_dumps_params={"indent": 2, "ensure_ascii": False})
    name = slugify(request.user.get_username()) or "account"
    response["Content-Disposition"] = f'attachment; filename="mlcourse-{name}-{timezone.localdate():%Y-%m-%d}.json"'
    return response


@login_required
@never_cache
@require_page_or_form
def account_remove(request: HttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST or None, user=request.user, request=request)
    if request.method == "POST" and form.is_valid():
        try:
            account_delete(user=request.user)
        except AccountError as exc:
            form.add_error(None, str(exc))
        else:
            logout(request)
            messages.success(request, "Your account and everything in it have been deleted.")
            return HttpResponseSeeOther(reverse("content:home"))
    focus_first_error(form)
    context = {
        "form": form,
        "summary": account_summary(user=request.user),
        "owned": account_owned_cohorts(user=request.user),
    }
    return render(request, "registration/account_delete.html", context, status=422 if form.errors else 200)
