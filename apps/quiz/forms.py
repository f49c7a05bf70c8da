from __future__ import annotations

from django import forms
from django.core import signing
from django.utils import timezone

from .models import QuizSession, SessionItem
from .services import MAX_RESPONSE_LENGTH, Submission

_TOKEN_SALT = "quiz.answer"  # noqa: S105 - a signing namespace, not a secret
_TOKEN_MAX_AGE = 60 * 60 * 24 * 7


class StartForm(forms.Form):
    size = forms.IntegerField(
        label="Number of questions",
        min_value=1,
        max_value=50,
        initial=10,
        help_text="From 1 to 50; a deck with fewer cards gives a shorter quiz.",
        error_messages={
            "required": "Say how many questions: from 1 to 50.",
            "invalid": "Enter a whole number of questions, from 1 to 50.",
            "min_value": "Ask for at least 1 question.",
            "max_value": "Ask for at most 50 questions.",
        },
    )
    mode = forms.ChoiceField(
        label="Question type",
        choices=QuizSession.Mode.choices,
        initial=QuizSession.Mode.MIXED,
        widget=forms.RadioSelect,
    )
    order = forms.ChoiceField(
        label="Which cards first",
        choices=QuizSession.Order.choices,
        initial=QuizSession.Order.NEW,
        help_text="Your weakest: the cards you are most likely to have forgotten by now first, then the ones you "
        "learnt least firmly; cards you have never answered come last.",
        widget=forms.RadioSelect,
    )


class ReviewForm(StartForm):
    """The review's options: its cards are the ones due, across every deck, so no deck limits its length."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["size"].help_text = "From 1 to 50; with fewer cards due, the review is shorter."


def question_token(item: SessionItem) -> str:
    """Signed (session, position, time shown): proves the form came from us and times the answer."""
    return signing.dumps([item.session_id, item.position, timezone.now().timestamp()], salt=_TOKEN_SALT)


class TamperedFormError(Exception):
    pass


class AnswerForm(forms.Form):
    response_limit = MAX_RESPONSE_LENGTH  # the page counts the characters as they near it (quiz.js)
    token = forms.CharField(widget=forms.HiddenInput)
    response = forms.CharField(
        label="Your answer",
        required=False,
        strip=True,
        # No maxlength: the browser would cut a pasted answer silently; the form says how much is too much.
        widget=forms.Textarea(attrs={"rows": 4, "autocomplete": "off"}),
    )
    option = forms.IntegerField(required=False, min_value=0)
    reveal = forms.BooleanField(required=False)
    # "Show answer" with an option chosen asks first (quiz.js asks in the page; without JavaScript the question
    # comes back asking): set by the second press, which shows the answer and drops the choice.
    reveal_confirmed = forms.BooleanField(required=False)

    def __init__(self, *args, item: SessionItem, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.item = item
        if not self.is_bound:
            self.initial["token"] = question_token(item)

    def token_age_ms(self) -> int | None:
        try:
            session_id, position, shown_at = signing.loads(
                self.data.get("token", ""), salt=_TOKEN_SALT, max_age=_TOKEN_MAX_AGE
            )
        except (signing.BadSignature, ValueError, TypeError):
            raise TamperedFormError from None
        if (session_id, position) != (self.item.session_id, self.item.position):
            raise TamperedFormError
        elapsed = int((timezone.now().timestamp() - float(shown_at)) * 1000)
        return min(max(elapsed, 0), 60 * 60 * 1000)

    def clean(self):
        data = super().clean()
        option = data.get("option")
        if data.get("reveal"):
            chosen = self.item.mode == "choice" and option is not None and option < len(self.item.options)
            if chosen and not data.get("reveal_confirmed"):
                self.add_error("reveal_confirmed", f"You chose option {option + 1}.")
            return data
        if self.item.mode == "choice":
            if option is None or option >= len(self.item.options):
                self.add_error("option", "Choose one of the options.")
        else:
            # A browser sends a new line as CR LF: counted so, each was two characters of the limit.
            response = data["response"] = (data.get("response") or "").replace("\r\n", "\n")
            if not response:
                self.add_error("response", "Type an answer, or choose “Show answer” if you do not know.")
            elif len(response) > MAX_RESPONSE_LENGTH:
                self.add_error(
                    "response", f"Your answer has {len(response):,} characters; the limit is {MAX_RESPONSE_LENGTH:,}."
                )
        return data

    def submission(self, *, time_taken_ms: int | None) -> Submission:
        data = self.cleaned_data
        return Submission(
            response=data.get("response") or "",
            option=data.get("option"),
            reveal=bool(data.get("reveal")),
            time_taken_ms=time_taken_ms,
        )
