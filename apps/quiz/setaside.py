"""Setting a card aside from one's quizzes and reviews (Anki's "suspend"), from the card's page or a question's
feedback, and the list of the cards set aside, from which each comes back."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import BadRequest
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django_htmx.http import replace_url

from apps.common.http import HttpResponseSeeOther, render_page_or_partial, require_page_or_form
from apps.content.models import Card
from apps.content.selectors import sees_drafts

from . import memory, selectors
from .models import CardState, QuizSession, SessionItem
from .views import SESSION_TEMPLATE, under_feedback

PAGE_SIZE = 50
NOTES = {
    True: "Set aside: it is asked in none of your quizzes and reviews until you bring it back.",
    False: "Brought back: it is asked again, and comes back for review as its schedule says.",
}
REVISED = "Its deck is being revised: this card can be set aside or brought back once the deck is published again."


def _aside_asked(request: HttpRequest) -> bool:
    if request.POST.get("aside") not in ("0", "1"):
        raise BadRequest("A form this site did not send.")
    return request.POST["aside"] == "1"


@login_required
@never_cache
@require_page_or_form
def set_aside(request: HttpRequest, pk: int) -> HttpResponse:
    """POST aside=1 sets the card aside, aside=0 brings it back; `from=list` goes back to the list afterwards."""
    cards = Card.objects.select_related("deck")
    card = get_object_or_404(cards if sees_drafts(request.user) else cards.filter(deck__published=True), pk=pk)
    back = reverse("quiz:set_aside_list") if request.POST.get("from") == "list" else card.get_absolute_url()
    if request.method != "POST":  # signing in sends a GET here: the page the button was on has it again
        return redirect(back)
    aside = _aside_asked(request)
    try:
        memory.card_set_aside(user=request.user, card_id=card.pk, aside=aside)
    except CardState.DoesNotExist:
        raise Http404("You have not answered this card: it is set aside from nothing.") from None
    note = NOTES[aside]
    if request.htmx:
        history = selectors.card_history(user=request.user, card=card)
        return render(request, "quiz/_card_history.html", {"history": history, "card": card, "note": note})
    messages.success(request, note)
    return HttpResponseSeeOther(back)


@require_safe
@login_required
def set_aside_list(request: HttpRequest) -> HttpResponse:
    states = memory.cards_set_aside(user=request.user)
    if not sees_drafts(request.user):  # a deck unpublished since: its card's page, and bringing it back, are 404s
        states = states.filter(card__deck__published=True)
    page = Paginator(states, PAGE_SIZE).get_page(request.GET.get("page"))
    return render_page_or_partial(request, "quiz/set_aside.html", "results", {"page": page})


@under_feedback
def set_aside_from_feedback(request: HttpRequest, quiz: QuizSession, question: SessionItem) -> HttpResponse:
    """ "Set this card aside" under a question's feedback, and "Bring it back": the answer given and the quiz's score
    stay as they are; quizzes and reviews started later leave the card out. Back to the same feedback, its button
    turned and a note saying what was done: a message without JavaScript, beside the button with HTMX."""
    aside = _aside_asked(request)
    url = reverse("quiz:item", args=[quiz.pk, question.position])
    # A deck made a draft since the feedback was shown: as from the card's page (a 404 now), nothing is done, which
    # the list of cards set aside, leaving the card out until the deck is published, could not show or undo.
    refused = not question.card.deck.published and not sees_drafts(request.user)
    if refused:
        note = REVISED
    else:
        try:
            state = memory.card_set_aside(user=request.user, card_id=question.card_id, aside=aside)
        except CardState.DoesNotExist:
            raise Http404("You have not answered this card: it is set aside from nothing.") from None
        question.card_set_aside_at = state.set_aside_at
        note = NOTES[aside]
    if not request.htmx:
        (messages.info if refused else messages.success)(request, note)
        return HttpResponseSeeOther(url)
    context = {
        "session": quiz,
        "state": "feedback",
        "item": question,
        "answer": question.answer,
        "aside_note": note,
    }
    return replace_url(render_page_or_partial(request, SESSION_TEMPLATE, "stage", context), url)
