from django.urls import include, path

from apps.common.http import require_page_or_form

from . import views
from .forms import SignInForm

# Django's form views would take a PUT as a POST, and its reset link answered any method with its page: these answer
# 405 to anything but a page, a HEAD or a form, as the site's own views do.

urlpatterns = [
    path("login/", require_page_or_form(views.SignInView.as_view(authentication_form=SignInForm)), name="login"),
    path("logout/", views.SignOutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("account/", views.account, name="account"),
    path("account/download/", views.account_download, name="account_download"),
    path("account/delete/", views.account_remove, name="account_delete"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("password_change/", require_page_or_form(views.PasswordChange.as_view()), name="password_change"),
    path(
        "reset/<uidb64>/<token>/",
        require_page_or_form(views.PasswordResetConfirm.as_view()),
        name="password_reset_confirm",
    ),
    path("", include("django.contrib.auth.urls")),
]
