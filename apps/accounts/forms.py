from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, PasswordChangeForm, PasswordResetForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives
from django.template import loader
from django.template.defaultfilters import pluralize

from apps.common.ratelimits import minutes_left

from .selectors import email_taken
from .services import password_confirm, password_reset_mail_queue, sign_in_tries_left


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        max_length=254,  # the user table's column: the box took 320 characters, and the model then refused them
        error_messages={"max_length": "An email address can be at most 254 characters long."},
        help_text="Used to reset your password; the instructors of cohorts you join see it too.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_username(self) -> str:
        username = super().clean_username()
        # Signing in takes a user name or an email, an exact user name first: this one would shut the account
        # whose email it is out of signing in by email.
        if username and "@" in username and get_user_model().objects.filter(email__iexact=username).exists():
            raise forms.ValidationError("This user name is another account's email address: choose another.")
        return username

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email_taken(email=email):
            raise forms.ValidationError("An account with this email address already exists. Try signing in.")
        return email


def lockout_warning(*, request, username: str) -> str | None:
    """After a wrong password axes has just counted (signing in, or on an account page): how many more this name has
    from this network before its pause. None when nothing was counted, or when this one locked it."""
    tries = sign_in_tries_left(request=request, credentials={"username": username})
    if tries is None:
        return None
    left, pause = tries
    minutes = minutes_left(pause)
    return (
        f"{left} more tr{pluralize(left, 'y,ies')} before signing in with this name from your network pauses for"
        f" {minutes} minute{pluralize(minutes)}."
    )


def _warned(error: ValidationError, *, request, username: str) -> ValidationError:
    """A refused password's error, with the lockout's warning after it when this failure was counted."""
    warning = lockout_warning(request=request, username=username)
    return ValidationError([error, ValidationError(warning, code="lockout_warning")]) if warning else error


def _wrong_password(message: str, *, request, user, code: str | None = None) -> ValidationError:
    """An account page's refusal of a wrong current password, with the lockout's warning as signing in has it: the
    wrong passwords there count towards the same pause."""
    return _warned(ValidationError(message, code=code), request=request, username=user.get_username())


class _UsernameLengthMixin:
    """Refuses an over-long user name before authenticating, and warns of the lockout after a counted failure.

    AuthenticationForm sets the field's max_length after the field is built, so the limit only
    reaches the HTML; a longer name went on to django-axes, whose 255-character column refused it (a 500).
    """

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if len(username) > self.fields["username"].max_length:
            raise self.get_invalid_login_error()
        return username

    def get_invalid_login_error(self) -> ValidationError:
        # The fifth typo used to pause sign-in for a quarter of an hour unannounced.
        return _warned(super().get_invalid_login_error(), request=self.request, username=self.data.get("username"))


class SignInForm(_UsernameLengthMixin, AuthenticationForm):
    # Django's message says both fields "may be case-sensitive"; here the user name is not (backends.py).
    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": (
            "Please enter a correct username (or email address) and password. The password is case-sensitive; the"
            " username is not."
        ),
    }

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["username"].label = "Username or email"


class AdminSignInForm(_UsernameLengthMixin, AdminAuthenticationForm):
    pass


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, whose mail is rendered in the request and sent in the background."""

    def send_mail(
        self, subject_template_name, email_template_name, context, from_email, to_email, html_email_template_name=None
    ) -> None:
        # Django's send_mail up to its send(), so the message is the same.
        subject = "".join(loader.render_to_string(subject_template_name, context).splitlines())
        message = EmailMultiAlternatives(
            subject, loader.render_to_string(email_template_name, context), from_email, [to_email]
        )
        if html_email_template_name is not None:
            message.attach_alternative(loader.render_to_string(html_email_template_name, context), "text/html")
        password_reset_mail_queue(message=message, user_pk=context["user"].pk)


class ProfileForm(forms.ModelForm):
    """The name instructors see in their cohorts, and the email a password reset goes to.

    A new email needs the current password: whoever holds only a stolen session could otherwise point the
    password reset at their own inbox and keep the account.
    """

    current_password = forms.CharField(
        label="Current password",
        required=False,
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="Needed only to change your email address.",
    )

    class Meta:
        model = get_user_model()
        fields = ("first_name", "last_name", "email")
        help_texts = {"email": "Password resets are sent here; the instructors of your cohorts see it too."}
        widgets = {
            "first_name": forms.TextInput(attrs={"autocomplete": "given-name"}),
            "last_name": forms.TextInput(attrs={"autocomplete": "family-name"}),
            "email": forms.EmailInput(attrs={"autocomplete": "email"}),
        }

    def __init__(self, *args, request, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.fields["email"].required = True
        self._email = self.instance.email  # the form writes the new one onto the instance as it validates

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if email_taken(email=email, other_than=self.instance.pk):
            raise forms.ValidationError("Another account uses this email address.")
        return email

    def clean(self) -> dict:
        cleaned = super().clean()
        email = cleaned.get("email")
        changed = email is not None and email.casefold() != self._email.casefold()
        password = cleaned.get("current_password") or ""
        said = "Enter your current password to change your email address."
        if changed and not password:
            # Left empty (the box is optional): no guess, so not counted towards the sign-in pause as a wrong one.
            self.add_error("current_password", said)
        elif changed and not password_confirm(request=self.request, user=self.instance, password=password):
            self.add_error("current_password", _wrong_password(said, request=self.request, user=self.instance))
        return cleaned


class AccountDeleteForm(forms.Form):
    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args, user, request, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user, self.request = user, request

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not password_confirm(request=self.request, user=self.user, password=password):
            said = "That is not your password; nothing was deleted."
            raise _wrong_password(said, request=self.request, user=self.user)
        return password


class CountedPasswordChangeForm(PasswordChangeForm):
    """Django's, with the old password checked as signing in checks it: a wrong one counts towards the lockout."""

    def __init__(self, user, *args, request, **kwargs) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request
        # As the account page names them, not Django's "Old password" and "New password confirmation".
        self.fields["old_password"].label = "Current password"
        self.fields["new_password2"].label = "New password again"

    def clean_old_password(self) -> str:
        old_password = self.cleaned_data["old_password"]
        if not password_confirm(request=self.request, user=self.user, password=old_password):
            said = self.error_messages["password_incorrect"]
            raise _wrong_password(said, request=self.request, user=self.user, code="password_incorrect")
        return old_password
