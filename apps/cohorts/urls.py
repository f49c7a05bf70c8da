from django.urls import path

from . import extensions, views

app_name = "cohorts"

urlpatterns = [
    path("cohorts/", views.cohort_list, name="list"),
    path("cohorts/new/", views.cohort_create, name="create"),
    path("cohorts/<int:pk>/", views.dashboard, name="dashboard"),
    path("cohorts/<int:pk>/manage/", views.manage, name="manage"),
    path("cohorts/<int:pk>/owner/", views.owner_set, name="owner"),
    path("cohorts/<int:pk>/assignments/", views.assignment_add, name="assignment_add"),
    path("cohorts/<int:pk>/assignments/<int:deck_id>/remove/", views.assignment_remove, name="assignment_remove"),
    path(
        "cohorts/<int:pk>/assignments/<int:deck_id>/extensions/",
        extensions.assignment_extensions,
        name="assignment_extensions",
    ),
    path(
        "cohorts/<int:pk>/assignments/<int:deck_id>/extensions/<int:student_id>/",
        extensions.assignment_extension_change,
        name="assignment_extension_change",
    ),
    path(
        "cohorts/<int:pk>/assignments/<int:deck_id>/extensions/<int:student_id>/remove/",
        extensions.assignment_extension_remove,
        name="assignment_extension_remove",
    ),
    path("cohorts/<int:pk>/code/", views.code_regenerate, name="code"),
    path("cohorts/<int:pk>/students/<int:student_id>/", views.student_detail, name="student"),
    path("cohorts/<int:pk>/students/<int:student_id>/remove/", views.student_remove, name="student_remove"),
    path(
        "cohorts/<int:pk>/students/<int:student_id>/extensions/<int:deck_id>/", extensions.extension, name="extension"
    ),
    path(
        "cohorts/<int:pk>/students/<int:student_id>/extensions/<int:deck_id>/remove/",
        extensions.extension_remove,
        name="extension_remove",
    ),
    path("cohorts/<int:pk>/export/matrix.csv", views.export_matrix, name="export_matrix"),
    path("cohorts/<int:pk>/export/items.csv", views.export_items, name="export_items"),
    path("cohorts/<int:pk>/leave/", views.leave, name="leave"),
    path("join/", views.join, name="join"),
    path("join/<str:code>/", views.join, name="invite"),
]
