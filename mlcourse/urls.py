from django.contrib import admin
from django.urls import include, path

from apps.common.views import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("apps.accounts.urls")),
    path("", include("apps.quiz.urls")),
    path("", include("apps.cohorts.urls")),
    path("", include("apps.content.urls")),
]

handler403 = "apps.common.views.permission_denied"
