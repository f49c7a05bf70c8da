from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import condition, require_GET

from . import selectors


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "content/home.html", {"decks": selectors.deck_list()})


@require_GET
def deck_detail(request: HttpRequest, slug: str) -> HttpResponse:
    deck = selectors.deck_get(slug=slug)
    show_answers = request.GET.get("answers") == "shown"
    return render(
        request,
        "content/deck.html",
        {"deck": deck, "cards": selectors.deck_cards(deck=deck), "show_answers": show_answers},
    )


@require_GET
def card_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    return render(request, "content/card.html", {"card": selectors.card_get(slug=slug, pk=pk)})


def _styles_etag(request: HttpRequest) -> str:
    return selectors.style_rules_version()


@require_GET
@condition(etag_func=_styles_etag)
def styles(request: HttpRequest) -> HttpResponse:
    """The rules that stand in for KaTeX's inline styles, which a strict CSP would block."""
    response = HttpResponse(selectors.style_rules_css(), content_type="text/css; charset=utf-8")
    response["Cache-Control"] = "public, max-age=0, must-revalidate"
    return response
