from django.urls import include, path

from . import views

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("password_reset/", views.password_reset, name="password_reset"),
    path("", include("django.contrib.auth.urls")),
]
