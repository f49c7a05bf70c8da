from django.urls import include, path

from . import views
from .forms import SignInForm

urlpatterns = [
    path("login/", views.SignInView.as_view(authentication_form=SignInForm), name="login"),
    path("logout/", views.SignOutView.as_view(), name="logout"),
    path("signup/", views.signup, name="signup"),
    path("account/", views.account, name="account"),
    path("account/download/", views.account_download, name="account_download"),
    path("account/delete/", views.account_remove, name="account_delete"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("password_change/", views.PasswordChange.as_view(), name="password_change"),
    path("reset/<uidb64>/<token>/", views.PasswordResetConfirm.as_view(), name="password_reset_confirm"),
    path("", include("django.contrib.auth.urls")),
]
