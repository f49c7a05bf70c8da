"""Every quiz a student has taken, not only the last ten My progress lists: a summary they want to see again (the
one before an exam, say) is a few pages back, and a deck's or the reviews' quizzes can be listed alone."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
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
