"""The quiz's answers to requests that cannot be carried out: a page saying why, or for HTMX a message and a reload."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.html import format_html
from django_htmx.http import HttpResponseClientRefresh

from apps.common.html import bdi

from . import selectors
from .forms import AnswerForm
from .models import QuizSession


def problem_page(request: HttpRequest, quiz: QuizSession, problem: str, *, status: int, said: str = "") -> HttpResponse:
    """A request that cannot be carried out: its own page, or for HTMX a message and a reload."""
    if request.htmx:
        messages.warning(request, said or PROBLEMS[problem])
        response = HttpResponseClientRefresh()
        response.status_code = status
        return response
    return render(request, "quiz/problem.html", {"session": quiz, "problem": problem}, status=status)


def answer_not_taken(request: HttpRequest, quiz: QuizSession, form: AnswerForm, withdrawn: str = "") -> HttpResponse:
    """An answer to a quiz that ended meanwhile (ended in another tab, or by a newer quiz started there), or to a
    question withdrawn from it (`withdrawn` says why): the words typed are given back, since nothing kept them, and
    the newer quiz is offered."""
    form.is_valid()  # a withdrawn question is refused before its form is read
    typed = form.cleaned_data.get("response", "") if form.item.mode == "recall" else ""
    # The words given back are isolated, as wherever a student's text is shown inline.
    if request.htmx and withdrawn:
        said = format_html("{} Here it is: “{}”", withdrawn, bdi(typed)) if typed else withdrawn
        return problem_page(request, quiz, "withdrawn", status=409, said=said)
    if request.htmx:
        # The refresh shows the quiz's results, which offer the newer quiz.
        said = (
            format_html("{} Your answer was not saved; here it is: “{}”", PROBLEMS["finished"], bdi(typed))
            if typed
            else ""
        )
        return problem_page(request, quiz, "finished", status=409, said=said)
    context = {
        "session": quiz,
        "problem": "withdrawn" if withdrawn else "finished",
        "withdrawn": withdrawn,
        "typed": typed,
        "newer": selectors.session_newer_open(session=quiz),
    }
    return render(request, "quiz/problem.html", context, status=409)


PROBLEMS = {
    "finished": "This quiz is finished and takes no more answers.",
    "unanswered": "Answer the question before marking it right or wrong.",
    "fixed": "Only a typed answer can be marked right or wrong; a chosen option or a shown answer stays as it is.",
    "unchecked": "Only an answer typed before “Show answer” can be checked.",
    "tampered": "That form had expired or was changed; nothing was saved. Please try again.",
}
