"""A student's record: My progress, and every quiz they have taken, not only the last ten My progress lists: a
summary they want to see again (the one before an exam, say) is a few pages back, and a deck's or the reviews'
quizzes can be listed alone."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from apps.common.http import render_page_or_partial

from . import selectors

PAGE_SIZE = 25
# The filter's value for the reviews of due cards across decks, which have no deck: "~" is in no slug.
REVIEWS = "~reviews"


@require_safe
@login_required
def history(request: HttpRequest) -> HttpResponse:
    decks = selectors.session_decks(user=request.user)
    chosen = request.GET.get("deck", "")
    deck = next((deck for deck in decks if deck.slug == chosen), None)
    if chosen and chosen != REVIEWS and deck is None:
        raise Http404("You have taken no quiz on that deck.")
    sessions = selectors.sessions_history(user=request.user, deck=deck, reviews=chosen == REVIEWS)
    totals = selectors.sessions_totals(sessions=sessions)
    paginator = Paginator(sessions, PAGE_SIZE)
    paginator.count = totals["quizzes"]  # counted with the totals: not again
    context = {
        "decks": decks,
        "chosen": chosen,
        "deck": deck,
        "reviews": REVIEWS,
        "totals": totals,
        "page": paginator.get_page(request.GET.get("page")),
    }
    return render_page_or_partial(request, "quiz/history.html", "results", context)


@login_required
@require_safe
def progress(request: HttpRequest) -> HttpResponse:
    decks = selectors.progress_by_deck(user=request.user)
    context = {
        "decks": decks,
        "sessions": selectors.sessions_recent(user=request.user),
        "activity": selectors.activity_recent(user=request.user),
        # Nothing to forecast before a first answer: the page says so once, in its first line.
        "forecast": selectors.reviews_forecast(user=request.user) if any(deck.seen for deck in decks) else None,
        "due": sum(deck.due_now for deck in decks),
        "aside": sum(deck.aside for deck in decks),
        # As "Review due cards" says it: when the next card comes back, or that none has been answered yet.
        "next_due": min((deck.next_due for deck in decks if deck.next_due), default=None),
    }
    return render(request, "quiz/progress.html", context)
