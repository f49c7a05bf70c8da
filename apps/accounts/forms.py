from __future__ import annotations

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm


class SignupForm(UserCreationForm):
    email = forms.EmailField(
        help_text="Used only to reset your password.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")

    def clean_email(self) -> str:
        email = self.cleaned_data["email"].strip()
        if get_user_model().objects.filter(email__iexact=email).exists():
            raise forms.ValidationError("An account with this email address already exists. Try signing in.")
        return email


class _UsernameLengthMixin:
    """Refuses an over-long user name before authenticating.

    AuthenticationForm sets the field's max_length after the field is built, so the limit only
    reaches the HTML; a longer name went on to django-axes, whose 255-character column refused it (a 500).
    """

    def clean_username(self) -> str:
        username = self.cleaned_data["username"]
        if len(username) > self.fields["username"].max_length:
            raise self.get_invalid_login_error()
        return username


class SignInForm(_UsernameLengthMixin, AuthenticationForm):
    pass


class AdminSignInForm(_UsernameLengthMixin, AdminAuthenticationForm):
    pass
