from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import condition, require_safe

from apps.common.http import render_page_or_partial

from . import selectors
from .forms import SearchForm
from .styles import version_remember


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    return render(
        request, "content/home.html", {"decks": selectors.deck_list(drafts=selectors.sees_drafts(request.user))}
    )


@require_safe
def deck_detail(request: HttpRequest, slug: str) -> HttpResponse:
    deck = selectors.deck_get(slug=slug, drafts=selectors.sees_drafts(request.user))
    show_answers = request.GET.get("answers") == "shown"
    return render(
        request,
        "content/deck.html",
        {"deck": deck, "cards": selectors.deck_cards(deck=deck), "show_answers": show_answers},
    )


@require_safe
def card_detail(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    # Closed by default, so a student can test themselves; a quiz's summary links here with it open.
    show_answer = request.GET.get("answers") == "shown"
    return render(
        request,
        "content/card.html",
        {
            "card": selectors.card_get(slug=slug, pk=pk, drafts=selectors.sees_drafts(request.user)),
            "show_answer": show_answer,
        },
    )


@require_safe
def search(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    form.is_valid()
    if "deck" in form.errors:  # no slug at all (a NUL byte, which the database would refuse): as /decks/<slug>/ is
        raise Http404("No such deck.")
    query, slug = form.cleaned_data.get("q", ""), form.cleaned_data["deck"]
    drafts = selectors.sees_drafts(request.user)
    # A deck a student may not see is a 404, as its page is.
    deck = selectors.deck_get(slug=slug, drafts=drafts) if slug else None
    page, any_word = None, False
    if query:
        paginator = Paginator(selectors.card_search(query=query, drafts=drafts, deck=deck), 20)
        if not paginator.count and selectors.search_can_widen(query=query):
            # No card holds every word: the cards holding some of them, said to be that.
            paginator = Paginator(selectors.card_search(query=query, drafts=drafts, deck=deck, any_word=True), 20)
            any_word = bool(paginator.count)
        page = paginator.get_page(request.GET.get("page"))
    context = {"form": form, "query": query, "deck": deck, "page": page, "any_word": any_word}
    return render_page_or_partial(request, "content/search.html", "results", context)


def _styles_etag(request: HttpRequest) -> str:
    request.styles_version = selectors.style_rules_version()
    version_remember(request.styles_version)  # on a 304 too, which never reaches the view
    return request.styles_version


@require_safe
@condition(etag_func=_styles_etag)
def styles(request: HttpRequest) -> HttpResponse:
    """The rules that stand in for KaTeX's inline styles, which a strict CSP would block.

    /styles/content.css?v=<current version> never changes, so browsers keep it for a year without asking;
    the plain URL, or an outdated version, is the current CSS, revalidated (ETag) on every use.
    """
    version = request.styles_version
    response = HttpResponse(selectors.style_rules_css(), content_type="text/css; charset=utf-8")
    if request.GET.get("v") == version:
        response["Cache-Control"] = "public, max-age=31536000, immutable"  # a year
    else:
        response["Cache-Control"] = "public, max-age=0, must-revalidate"
    return response
