from django.urls import path

from . import history, setaside, views

app_name = "quiz"

urlpatterns = [
    path("decks/<slug:slug>/quiz/", views.start, name="start"),
    path("quiz/review/", views.review, name="review"),
    path("quiz/history/", history.history, name="history"),
    path("quiz/<int:pk>/", views.session, name="session"),
    path("quiz/<int:pk>/finish/", views.finish, name="finish"),
    path("quiz/<int:pk>/retry/", views.retry, name="retry"),
    path("quiz/<int:pk>/q/<int:position>/", views.item, name="item"),
    path("quiz/<int:pk>/q/<int:position>/override/", views.override, name="override"),
    path("quiz/<int:pk>/q/<int:position>/check/", views.check_typed, name="check_typed"),
    path("quiz/<int:pk>/q/<int:position>/report/", views.report, name="report"),
    path("quiz/<int:pk>/q/<int:position>/set-aside/", setaside.set_aside_from_feedback, name="set_aside_item"),
    path("progress/", history.progress, name="progress"),
    path("progress/set-aside/", setaside.set_aside_list, name="set_aside_list"),
    path("cards/<int:pk>/set-aside/", setaside.set_aside, name="set_aside"),
]
