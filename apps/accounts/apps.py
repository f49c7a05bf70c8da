from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"
    label = "accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        # Every successful sign-in, on the site or in the admin (and the one after sign-up), goes through
        # django.contrib.auth.login, which sends this signal.
        user_logged_in.connect(_forget_sign_in_failures, dispatch_uid="accounts.forget_sign_in_failures")


def _forget_sign_in_failures(sender, request, user, **kwargs) -> None:
    from .services import sign_in_failures_forget

    sign_in_failures_forget(request=request, user=user)
