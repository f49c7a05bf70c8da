from django.urls import path

from . import views

app_name = "content"

urlpatterns = [
    path("", views.home, name="home"),
    path("styles/content.css", views.styles, name="styles"),
    path("search/", views.search, name="search"),
    path("decks/<slug:slug>/", views.deck_detail, name="deck"),
    path("decks/<slug:slug>/cards/<int:pk>/", views.card_detail, name="card"),
]
