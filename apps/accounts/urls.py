from django.contrib.auth.views import LoginView
from django.urls import include, path

from . import views
from .forms import SignInForm

urlpatterns = [
    path("login/", LoginView.as_view(authentication_form=SignInForm), name="login"),
    path("signup/", views.signup, name="signup"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
