from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from django_htmx.http import replace_url

from apps.common.forms import focus_first_error
from apps.common.http import HttpResponseSeeOther, render_page_or_partial, require_page_or_form
from apps.content.selectors import deck_get, sees_drafts

from . import reports, retries, selectors, services, shown, withdrawal
from .forms import AnswerForm, ReviewForm, StartForm, TamperedFormError
from .models import CardReport, QuizSession, SessionItem
from .problems import answer_not_taken, problem_page

SESSION_TEMPLATE = "quiz/session.html"
ALREADY_ANSWERED = "You had already answered this question; this is the answer that counts."


def _render_stage(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    """The whole page, or just its #stage partial when HTMX asks for it ("Next question" GETs the quiz's URL)."""
    return render_page_or_partial(request, SESSION_TEMPLATE, "stage", context, status=status)


def _start(request: HttpRequest, form: StartForm, *, deck) -> HttpResponse | None:
    try:
        session = services.session_start(user=request.user, deck=deck, **form.cleaned_data)
    except services.NothingToStudyError as exc:
        messages.info(request, str(exc))
        return None
    services.sessions_end_unfinished(user=request.user, deck=deck, keep=session.pk)
    return redirect(session)


def _feedback(request: HttpRequest, quiz: QuizSession, question, *, already_answered: bool = False) -> HttpResponse:
    """After a POST: the feedback partial for HTMX, else redirect to the feedback page (POST-redirect-GET).

    `quiz` must carry its counters as they are now (answer_record updates the item's quiz in place).
    `already_answered`: the POST was a different answer to a question answered before, and the feedback says
    the first one counts; without HTMX the note crosses the redirect as a message, so that a reload resends nothing.
    """
    url = reverse("quiz:item", args=[quiz.pk, question.position])
    if not request.htmx:
        if already_answered:
            messages.warning(request, ALREADY_ANSWERED)
        return HttpResponseSeeOther(url)
    context = {"session": quiz, "state": "feedback", "item": question, "answer": question.answer}
    response = _render_stage(request, {**context, "already_answered": ALREADY_ANSWERED if already_answered else ""})
    # The address bar follows the stage, so that a reload shows this feedback (its override buttons included)
    # rather than the next question. Replaced, not pushed: Back would bring back an answered question's form.
    return replace_url(response, url)


def _differs(form: AnswerForm, answer) -> bool:
    """Whether a submission is not the stored answer: a stale page (Back, a second tab) sent something else.

    A double click sends the same again, which needs no note.
    """
    # A stale page's "Show answer" with an option chosen asks first (an error on reveal_confirmed), and is sent.
    if not form.is_valid() and set(form.errors) != {"reveal_confirmed"}:
        return True
    sent = form.submission(time_taken_ms=None)
    if sent.reveal or answer.revealed:
        return sent.reveal != answer.revealed
    if answer.mode == "choice":
        return sent.option != answer.chosen_option
    return sent.response.strip() != answer.response


def _within_limits(options: dict) -> dict:
    """A past quiz's options as the start form's initial values; a size the form no longer allows is left out."""
    limit = StartForm.base_fields["size"].max_value
    return {key: value for key, value in options.items() if key != "size" or 1 <= value <= limit}


# never_cache (no-store) on every quiz page: Back, or a tab left open, must fetch the quiz as it is now, not show
# from the browser's cache the form of a question already answered.
@login_required
@never_cache
@require_page_or_form
def start(request: HttpRequest, slug: str) -> HttpResponse:
    deck = deck_get(slug=slug, drafts=sees_drafts(request.user))  # an author may try out a draft
    last = selectors.session_last_options(user=request.user, deck=deck) if request.method != "POST" else {}
    # A deck tile's "Review the N due" asks for due cards first (?order=due) and for N of them, whatever the last
    # quiz's order and length were (a length left due cards out, or added new ones).
    asked = {"order": request.GET["order"]} if request.GET.get("order") in QuizSession.Order.values else {}
    form = StartForm(request.POST or None, initial={**_within_limits(last), **asked})
    if request.method == "POST" and form.is_valid() and (response := _start(request, form, deck=deck)):
        return response
    counts = selectors.deck_study_counts(user=request.user, deck=deck)
    if asked.get("order") == QuizSession.Order.DUE and counts["due"]:
        form.initial["size"] = min(counts["due"], StartForm.base_fields["size"].max_value)
    status = 422 if request.method == "POST" and form.errors else 200
    focus_first_error(form)
    unfinished = selectors.session_unfinished(user=request.user, deck=deck)
    context = {"deck": deck, "form": form, "counts": counts, "unfinished": unfinished}
    return render(request, "quiz/start.html", context, status=status)


@login_required
@never_cache
@require_page_or_form
def review(request: HttpRequest) -> HttpResponse:
    last = selectors.session_last_options(user=request.user, deck=None) if request.method != "POST" else {}
    form = ReviewForm(request.POST or None, initial={"order": QuizSession.Order.DUE, **_within_limits(last)})
    if request.method == "POST" and form.is_valid() and (response := _start(request, form, deck=None)):
        return response
    status = 422 if request.method == "POST" and form.errors else 200
    focus_first_error(form)
    counts = selectors.review_outlook(user=request.user)
    unfinished = selectors.session_unfinished(user=request.user, deck=None)
    context = {"deck": None, "form": form, "counts": counts, "unfinished": unfinished}
    return render(request, "quiz/start.html", context, status=status)


@login_required
@never_cache
@require_safe
def session(request: HttpRequest, pk: int) -> HttpResponse:
    quiz = selectors.session_get(user=request.user, pk=pk)
    item, withdrawn = withdrawal.session_resume(user=request.user, session=quiz)
    if item is None:
        items = selectors.session_items(session=quiz)
        withdrawn = withdrawal.withdrawal_of(items)
        missed = len(retries.missed_cards(session=quiz, items=items, user=request.user)[0])
        newer = selectors.session_newer_open(session=quiz)
        # The quiz a retry would end (the retry view ends the deck's other open quizzes), said under its button (as
        # well as in the note on a newer quiz); not an empty retry, which the button resumes or replaces.
        ending = (newer or selectors.session_unfinished(user=request.user, deck=quiz.deck)) if missed else None
        ending = None if ending is not None and ending.retry and not ending.answered_count else ending
        outlook = selectors.review_outlook(user=request.user)  # a review is offered only when something is due
        context = {
            "session": quiz,
            "state": "summary",
            "items": items,
            "missed": missed,
            "newer": newer,
            "ended_by_newer": selectors.session_ended_by_newer(session=quiz),
            "ending": ending,
            "outlook": outlook,
            # A card of a deck made a draft since has no page a student may open: its row names it without a link.
            "drafts_visible": sees_drafts(request.user),
        }
    else:
        context = {"session": quiz, "state": "question", "item": item, "form": AnswerForm(item=item)}
    context["withdrawn"] = withdrawn.note
    response = _render_stage(request, context)
    return replace_url(response, quiz.get_absolute_url()) if request.htmx else response


def _keeps_answer_through_sign_in(view):
    """An answer sent signed out (signed out in another tab, or the session expired) waits in the new session for
    the question's page that signing in leads back to, in its box. With JavaScript the tab keeps a draft; without
    it the words were lost on the way through the sign-in page."""

    @wraps(view)
    def wrapped(request: HttpRequest, pk: int, position: int) -> HttpResponse:
        answered = request.POST.get("response", "").strip() or request.POST.get("option")
        if request.method == "POST" and not request.user.is_authenticated and answered:
            question = SessionItem.objects.filter(session_id=pk, position=position).values_list("pk", flat=True)
            if question_pk := question.first():
                sent = _sent(request, ("token", "response", "option"))
                request.session[_REFUSED] = {"item": question_pk, "sent": sent, "errors": [_SIGNED_OUT]}
        return view(request, pk, position)

    return wrapped


_SIGNED_OUT = "You had been signed out, so this answer was not sent. Here it is again: check it and send it."


@_keeps_answer_through_sign_in
@login_required
@never_cache
@require_page_or_form
def item(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    if request.method == "POST":
        return _answer(request, pk, position)
    quiz = selectors.session_get(user=request.user, pk=pk)
    question = selectors.session_item(session=quiz, position=position)
    if hasattr(question, "answer"):
        context = {"session": quiz, "state": "feedback", "item": question, "answer": question.answer}
        return _render_stage(request, context)
    if quiz.finished_at:
        return redirect(quiz)
    if (withdrawn := withdrawal.question_withdraw(user=request.user, session=quiz, item=question)) is not None:
        if not quiz.finished_at:  # a withdrawal that ended the quiz is told by its results
            messages.info(request, withdrawal.refusal_note(question, withdrawn, answered=False))
        return redirect(quiz)
    context = {"session": quiz, "state": "question", "item": question, "form": _refused_form(request, question)}
    return _render_stage(request, context)


# Without JavaScript a refused answer is sent back as POST, redirect, GET, like an accepted one: the refused
# page as the POST's own answer made Back and reload ask to send the form again. What was sent, and the
# refusals the form alone cannot tell again, wait in the session for the GET.
_REFUSED = "quiz_refused_answer"
_SENT_FIELDS = ("token", "response", "option", "reveal")


def _sent(request: HttpRequest, names: tuple[str, ...]) -> dict[str, str]:
    """The fields sent, to wait in the session: each cut to twice the answer limit, since a field may hold 2.5 MB,
    and twice is enough to give an over-long answer back for its author to shorten."""
    return {
        name: value[: 2 * services.MAX_RESPONSE_LENGTH]
        for name in names
        if (value := request.POST.get(name)) is not None
    }


def _refused_redirect(request: HttpRequest, quiz: QuizSession, question: SessionItem, form: AnswerForm):
    sent = _sent(request, _SENT_FIELDS)
    # As said of what was sent: an over-long answer waits cut short, and counted again it would be the cut's length.
    said = {name: list(errors) for name, errors in form.errors.items() if name in _SENT_FIELDS}
    if "response" in said and len(sent.get("response", "")) < len(request.POST.get("response", "")):
        said["response"][0] += f" Only its first {len(sent['response']):,} characters are back in the box."
    request.session[_REFUSED] = {
        "item": question.pk,
        "sent": sent,
        "errors": list(form.non_field_errors()),
        "said": said,
    }
    return HttpResponseSeeOther(reverse("quiz:item", args=[quiz.pk, question.position]))


def _refused_form(request: HttpRequest, question: SessionItem) -> AnswerForm:
    """The question's form: blank, or as refused just before this page's redirect, with its errors: said once,
    but for the ask of "Show answer" with an option chosen, kept for a reload until the next answer is sent."""
    refused = request.session.get(_REFUSED)
    if not refused or refused.get("item") != question.pk:
        return AnswerForm(item=question)
    form = AnswerForm(refused["sent"], item=question)
    form.is_valid()
    for name, errors in refused.get("said", {}).items():
        if name in form.errors:
            form.errors[name] = form.error_class(errors)
    if "reveal_confirmed" not in form.errors:
        del request.session[_REFUSED]
    for error in refused["errors"]:
        form.add_error(None, error)
    return form


def _answer(request: HttpRequest, pk: int, position: int) -> HttpResponse:
    """The hot path: one query loads the question with its quiz, card and grading data."""
    try:
        question = services.item_for_answer(user=request.user, session_id=pk, position=position)
    except (QuizSession.DoesNotExist, SessionItem.DoesNotExist):
        raise Http404("No such question") from None
    quiz = question.session
    selectors.session_check_visible(session=quiz, user=request.user)
    request.session.pop(_REFUSED, None)  # an ask kept for a reload is answered now; marks the session only if held
    form = AnswerForm(request.POST, item=question)
    try:
        time_taken = form.token_age_ms()
    except TamperedFormError:
        return problem_page(request, quiz, "tampered", status=400)
    if hasattr(question, "answer"):
        # A resend or a second tab: show the answer already stored, change nothing, and say so if this one differs.
        return _feedback(request, quiz, question, already_answered=_differs(form, question.answer))
    if (withdrawn := withdrawal.question_withdraw(user=request.user, session=quiz, item=question)) is not None:
        return answer_not_taken(request, quiz, form, withdrawal.refusal_note(question, withdrawn))
    if form.is_valid():
        try:
            answer, created = services.answer_record(
                user=request.user, item=question, submission=form.submission(time_taken_ms=time_taken)
            )
        except services.SessionFinishedError:
            return answer_not_taken(request, quiz, form)
        except withdrawal.QuestionWithdrawnError:
            return answer_not_taken(request, quiz, form, withdrawal.refusal_note(question))
        except services.InvalidSubmissionError as exc:
            form.add_error(None, str(exc))
        else:
            # Not created: a twin submit, racing this one, stored its answer first.
            return _feedback(request, quiz, question, already_answered=not created and _differs(form, answer))
    if not request.htmx:
        return _refused_redirect(request, quiz, question, form)
    return _render_stage(request, {"session": quiz, "state": "question", "item": question, "form": form}, status=422)


def under_feedback(view):
    """The actions under a question's feedback ("I was right", a report, setaside.py's "Set this card aside"): a POST
    about the user's own answered question, given as (request, quiz, question).

    Only signing in sends a GET here: a button pressed while signed out comes back after the sign-in page to this
    address (its `next`), and goes on to the feedback, which has the button to press again; a 405 was a dead end.
    """

    @login_required
    @never_cache
    @require_page_or_form
    @wraps(view)
    def wrapped(request: HttpRequest, pk: int, position: int) -> HttpResponse:
        quiz = selectors.session_get(user=request.user, pk=pk)
        question = selectors.session_item(session=quiz, position=position)
        if request.method != "POST":
            return redirect("quiz:item", quiz.pk, position)
        if not hasattr(question, "answer"):
            return problem_page(request, quiz, "unanswered", status=409)
        return view(request, quiz, question)

    return wrapped


@under_feedback
def override(request: HttpRequest, quiz: QuizSession, question: SessionItem) -> HttpResponse:
    try:
        answer = services.answer_override(
            user=request.user, session_id=quiz.pk, position=question.position, verdict=request.POST.get("verdict", "")
        )
    except services.NotOverridableError:
        return problem_page(request, quiz, "fixed", status=409)
    except services.InvalidSubmissionError:
        return problem_page(request, quiz, "tampered", status=400)
    question.answer = answer
    quiz.refresh_from_db(fields=["score_sum"])
    return _feedback(request, quiz, question)


@under_feedback
def check_typed(request: HttpRequest, quiz: QuizSession, question: SessionItem) -> HttpResponse:
    """ "Check what I typed" under a shown answer: grades the words typed before "Show answer" was pressed."""
    try:
        question.answer = shown.answer_check_typed(user=request.user, session_id=quiz.pk, position=question.position)
    except services.NotOverridableError:
        return problem_page(request, quiz, "unchecked", status=409)
    quiz.refresh_from_db(fields=["score_sum"])
    return _feedback(request, quiz, question)


@under_feedback
def report(request: HttpRequest, quiz: QuizSession, question: SessionItem) -> HttpResponse:
    """A student's report of a problem with the card of a question they answered, sent from its feedback."""
    context = {"session": quiz, "state": "feedback", "item": question, "answer": question.answer}
    message = request.POST.get("message", "")
    try:
        _report, outcome = reports.card_report_submit(user=request.user, item=question, message=message)
    except reports.InvalidReportError as exc:
        # The page itself, without JavaScript too: the report's text stays in its box beside the error.
        text = message[: 2 * CardReport.MAX_LENGTH]
        return _render_stage(request, {**context, "report_error": str(exc), "report_text": text}, status=422)
    note = {
        "created": "Thank you: the instructors will see your report.",
        "added": "Thank you: your note is added to the report on this card you sent before.",
        "repeated": "You have reported this card already; the instructors will see that report.",
    }[outcome]
    if not request.htmx:
        messages.success(request, note)
        return HttpResponseSeeOther(reverse("quiz:item", args=[quiz.pk, question.position]))
    return _render_stage(request, {**context, "report_note": note})


@login_required
@never_cache
@require_page_or_form
def finish(request: HttpRequest, pk: int) -> HttpResponse:
    """GET asks first: the link sits just under "Show answer" on a phone, and an ended quiz cannot resume.

    POST ends it.
    """
    quiz = selectors.session_get(user=request.user, pk=pk)
    if request.method != "POST":
        # Withdrawn first, as the quiz's own page would: "3 of 5 unanswered" counts only the questions still asked.
        # One that ends the quiz leads to its results, which say what was withdrawn.
        item, withdrawn = withdrawal.session_resume(user=request.user, session=quiz)
        if item is None:
            return redirect(quiz)
        unanswered = quiz.item_count - quiz.answered_count
        context = {"session": quiz, "unanswered": unanswered, "withdrawn": withdrawn.note}
        return render(request, "quiz/finish.html", context)
    services.session_finish(user=request.user, session_id=quiz.pk)
    return redirect(quiz)


@login_required
@never_cache
@require_page_or_form
def retry(request: HttpRequest, pk: int) -> HttpResponse:
    """A new quiz of the questions of this one that were not right, offered on its results."""
    quiz = selectors.session_get(user=request.user, pk=pk)
    if request.method != "POST":
        return redirect(quiz)
    if not quiz.finished_at and quiz.answered_count < quiz.item_count:
        messages.info(request, "Finish this quiz first: its results offer the questions you missed.")
        return redirect(quiz)
    try:
        again = retries.session_retry(user=request.user, session=quiz)
    except services.NothingToStudyError as exc:
        messages.info(request, str(exc))
        return redirect(quiz)
    services.sessions_end_unfinished(user=request.user, deck=quiz.deck, keep=again.pk)  # as any new quiz does
    return redirect(again)
