"""Reads of the quiz. Every function runs a fixed number of queries, whatever the history size."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Count, Exists, Min, OuterRef, Q, QuerySet, Sum, Window
from django.db.models.functions import Coalesce, TruncDate
from django.http import Http404
from django.utils import timezone

from apps.common.compiled import CompiledQuery
from apps.content.models import Card, Deck
from apps.content.selectors import deck_list, sees_drafts

from .activity import Activity, Forecast, activity, first_day, forecast
from .asked import numbered, stale_annotations, with_asked_count
from .memory import card_set_aside_at
from .models import Answer, CardState, QuizSession, SessionItem, StudentCardStat, StudentDeckStat
from .scheduling import is_mastered, mastered_q


def _session(pk: int, user_id: int) -> QuerySet[QuizSession]:
    return QuizSession.objects.select_related("deck").filter(pk=pk, user_id=user_id)


_SESSION = CompiledQuery(_session, pk=30001, user_id=30002)


def session_get(*, user: AbstractBaseUser, pk: int) -> QuizSession:
    """The user's own session with its deck; anyone else's is a 404, and so is one on a deck made a draft since."""
    session = _SESSION.first(pk=pk, user_id=user.pk)
    if session is None:
        raise Http404("No such quiz")
    session_check_visible(session=session, user=user)
    return session


def session_check_visible(*, session: QuizSession, user: AbstractBaseUser) -> None:
    """A 404 for a quiz on a deck hidden from students (a draft), unless the user authors decks. The permission is
    asked only of a draft's quiz: every other quiz page costs no query for it."""
    if session.deck is not None and not session.deck.published and not sees_drafts(user):
        raise Http404("No such quiz")


def _items() -> QuerySet[SessionItem]:
    return numbered(SessionItem.objects.select_related("card", "card__deck", "answer", "answer__card_version"))


def _next_item(session_id: int, user_id: int) -> QuerySet[SessionItem]:
    # NOT EXISTS, not a LEFT JOIN to answers filtered on NULL: PostgreSQL plans the join as a hash of the whole
    # answer table, so the question page slowed as every student's history grew.
    answered = Answer.objects.filter(item=OuterRef("pk"))
    unanswered = SessionItem.objects.select_related("card", "card__deck").filter(
        ~Exists(answered), session_id=session_id, withdrawn=""
    )
    stale = stale_annotations(session_id=session_id, user_id=user_id)
    return numbered(unanswered).annotate(**stale).order_by("position")[:1]


# Each question page runs it: its ORM build and compilation took 9 ms, PostgreSQL 1 ms.
_NEXT_ITEM = CompiledQuery(_next_item, session_id=30001, user_id=30002)


def session_next_item(*, session: QuizSession) -> SessionItem | None:
    """The first unanswered question still asked: where a reload or a later visit resumes. Annotated with
    asked.stale_annotations: whether some questions are to be withdrawn first (withdrawal.session_resume)."""
    return _NEXT_ITEM.first(session_id=session.pk, user_id=session.user_id)


def _item(session_id: int, user_id: int, position: int) -> QuerySet[SessionItem]:
    items = _items().annotate(card_set_aside_at=card_set_aside_at(user_id=user_id))
    return items.filter(session_id=session_id, position=position)


# The feedback page after each answer sent without JavaScript, and every action under it.
_ITEM = CompiledQuery(_item, session_id=30001, user_id=30002, position=30003)


def session_item(*, session: QuizSession, position: int) -> SessionItem:
    """The question with its card and answer, and when its card was set aside (card_set_aside_at)."""
    item = _ITEM.first(session_id=session.pk, user_id=session.user_id, position=position)
    if item is None:
        raise Http404("No such question")
    return item


def session_items(*, session: QuizSession) -> list[SessionItem]:
    return list(_items().filter(session=session).order_by("position"))


def session_unfinished(*, user: AbstractBaseUser, deck: Deck | None) -> QuizSession | None:
    """The user's latest quiz on `deck` (None: a review of due cards) still open, to offer it before another, with
    asked.with_asked_count's `asked_count`."""
    unfinished = QuizSession.objects.filter(user=user, deck=deck, finished_at__isnull=True)
    return with_asked_count(unfinished).order_by("-created_at").first()


def session_newer_open(*, session: QuizSession) -> QuizSession | None:
    """For a quiz that ended before its last question: the student's newer quiz on the same deck (or review) still
    open, the one that, started in another tab, ended it, or one started since. None for a quiz answered in full."""
    if not session.finished_at or session.answered_count >= session.item_count:
        return None
    newer = session_unfinished(user=session.user, deck=session.deck)
    return newer if newer is not None and newer.created_at > session.created_at else None


def session_ended_by_newer(*, session: QuizSession) -> bool:
    """Whether the quiz ended early because the student started a newer one on the same deck (or review), which ends
    the open ones (services.sessions_end_unfinished): its results must not say the student ended it."""
    if not session.finished_at or session.answered_count >= session.item_count:
        return False
    started = Q(created_at__gt=session.created_at, created_at__lte=session.finished_at)
    return QuizSession.objects.filter(started, user_id=session.user_id, deck_id=session.deck_id).exists()


def session_last_options(*, user: AbstractBaseUser, deck: Deck | None) -> dict:
    """The size, mode and order of the user's latest quiz on `deck` (None: their latest review), to offer them
    again: a student who quizzes a deck the same way each time need not set the form each time. Not a retry's."""
    latest = QuizSession.objects.filter(user=user, deck=deck, retry=False).order_by("-created_at")
    latest = latest.values("size", "mode", "order")
    return dict(latest.first() or {})


# Reviews, and the quizzes of decks still published: not those of decks made drafts since, which students cannot open.
_VISIBLE = Q(deck__isnull=True) | Q(deck__published=True)


def sessions_recent(*, user: AbstractBaseUser, limit: int = 10) -> list[QuizSession]:
    return list(sessions_history(user=user)[:limit])


def sessions_history(*, user: AbstractBaseUser, deck: Deck | None = None, reviews: bool = False) -> QuerySet:
    """The user's quizzes, newest first: on `deck`, or only the reviews of due cards, or all of them. Not one that
    ended with nothing answered (another started over it, or ended at once): rows of "Ended early, 0 of 10" hid
    the quizzes taken."""
    sessions = QuizSession.objects.select_related("deck").filter(_VISIBLE, user=user)
    sessions = sessions.exclude(finished_at__isnull=False, answered_count=0)
    if reviews:
        sessions = sessions.filter(deck__isnull=True)
    elif deck is not None:
        sessions = sessions.filter(deck=deck)
    return sessions.order_by("-created_at", "-pk")


def sessions_totals(*, sessions: QuerySet) -> dict:
    """How many quizzes, how many answers, and their mean score (None before a first answer)."""
    totals = sessions.order_by().aggregate(
        quizzes=Count("pk"), answered=Coalesce(Sum("answered_count"), 0), score_sum=Sum("score_sum")
    )
    totals["score"] = totals.pop("score_sum") / totals["answered"] if totals["answered"] else None
    return totals


def session_decks(*, user: AbstractBaseUser) -> list[Deck]:
    """The published decks the user has taken quizzes on, by title: the history's choices."""
    taken = QuizSession.objects.filter(user=user, deck=OuterRef("pk"))
    return list(Deck.objects.filter(Exists(taken), published=True).order_by("title").only("slug", "title"))


@dataclass
class DeckProgress:
    deck: Deck
    cards: int
    seen: int = 0
    accuracy: float | None = None
    due_now: int = 0
    due_week: int = 0
    mastered: int = 0
    next_due: datetime | None = None  # the soonest card due after now
    aside: int = 0  # set aside by the student

    @property
    def new(self) -> int:
        return self.cards - self.seen


def cards_studied(*, user: AbstractBaseUser) -> QuerySet[CardState]:
    """The user's memory states of cards still in quizzes, of published decks (a state exists once a card is
    answered)."""
    return CardState.objects.filter(user=user, card__archived=False, card__deck__published=True)


# A card the student set aside (memory.card_set_aside) is due nowhere and comes back for no review.
KEPT = Q(set_aside_at__isnull=True)


def progress_by_deck(*, user: AbstractBaseUser, now: datetime | None = None) -> list[DeckProgress]:
    """Per deck: cards seen, accuracy (mean final score), due now / later in the next 7 days, mastered. Three
    queries. The 7 days are the reader's calendar days, today first, as the forecast's (reviews_forecast).

    Archived cards keep their answers in the accuracy but leave the counts: no quiz asks them any more.
    """
    now = now or timezone.now()
    week_end = days_ahead_end(now=now)
    rows = {deck.pk: DeckProgress(deck=deck, cards=deck.card_count) for deck in deck_list()}
    for stat in StudentDeckStat.objects.filter(user=user, deck__published=True).only(
        "deck_id", "score_sum", "attempts"
    ):
        rows[stat.deck_id].accuracy = stat.score_sum / stat.attempts
    states = (
        cards_studied(user=user)
        .values("deck")
        .annotate(
            seen=Count("pk"),
            due_now=Count("pk", filter=Q(due__lte=now) & KEPT),
            due_week=Count("pk", filter=Q(due__gt=now, due__lt=week_end) & KEPT),
            mastered=Count("pk", filter=mastered_q(now=now)),
            next_due=Min("due", filter=Q(due__gt=now) & KEPT),
            aside=Count("pk", filter=~KEPT),
        )
    )
    for row in states:
        progress = rows[row["deck"]]
        progress.seen, progress.due_now, progress.due_week = row["seen"], row["due_now"], row["due_week"]
        progress.mastered, progress.next_due, progress.aside = row["mastered"], row["next_due"], row["aside"]
    return list(rows.values())


def archived_cards_answered(*, users: QuerySet | list[int], deck_ids: list[int]) -> dict[tuple[int, int], int]:
    """Per (student, deck): answered cards now archived, which StudentDeckStat.cards_attempted still counts.

    Subtracting them gives the answered cards among those a deck still asks. Archived cards are few
    and StudentCardStat is indexed by card, so this reads a handful of rows.
    """
    rows = (
        StudentCardStat.objects.filter(card__archived=True, user__in=users, deck_id__in=deck_ids)
        .values_list("user_id", "deck_id")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return {(user_id, deck_id): n for user_id, deck_id, n in rows}


def review_outlook(*, user: AbstractBaseUser, now: datetime | None = None) -> dict:
    """Cards due now, and when the next one falls due (None when none is scheduled). One query."""
    now = now or timezone.now()
    # Aliases other than "due": an aggregate named like the field would shadow it in the filters.
    row = (
        cards_studied(user=user)
        .filter(KEPT)
        .aggregate(due_now=Count("pk", filter=Q(due__lte=now)), next_due=Min("due", filter=Q(due__gt=now)))
    )
    return {"due": row["due_now"], "next": row["next_due"]}


def deck_study_counts(*, user: AbstractBaseUser, deck: Deck, now: datetime | None = None) -> dict[str, int]:
    """How many of the deck's cards are new to the user, due, and set aside. One query."""
    now = now or timezone.now()
    mine = CardState.objects.filter(user=user, card=OuterRef("pk"))
    return Card.objects.filter(deck=deck, archived=False).aggregate(
        total=Count("pk"),
        new=Count("pk", filter=~Exists(mine)),
        due=Count("pk", filter=Exists(mine.filter(KEPT, due__lte=now))),
        aside=Count("pk", filter=Exists(mine.filter(~KEPT))),
    )


@dataclass(frozen=True)
class DeckStudy:
    """One deck's cards as the user stands with them: answered at least once, due now, mastered."""

    seen: int
    due: int
    mastered: int


@dataclass(frozen=True)
class Today:
    """What a signed-in student has waiting, for the home page."""

    due: int
    due_by_deck: list[tuple[str, int]]  # (deck title, cards due), most due first
    next_due: datetime | None
    unfinished: QuizSession | None
    decks: dict[int, DeckStudy]  # by deck id, for the decks the user has answered in


def study_today(*, user: AbstractBaseUser, now: datetime | None = None) -> Today:
    """Cards due per deck, when the next falls due, and the latest unfinished quiz. Two queries."""
    now = now or timezone.now()
    rows = list(
        cards_studied(user=user)
        .values("deck_id", "deck__title")
        .annotate(
            seen=Count("pk"),
            due_now=Count("pk", filter=Q(due__lte=now) & KEPT),
            mastered=Count("pk", filter=mastered_q(now=now)),
            next_due=Min("due", filter=Q(due__gt=now) & KEPT),
        )
        .order_by()
    )
    due_by_deck = sorted(((row["deck__title"], row["due_now"]) for row in rows if row["due_now"]),
                         key=lambda row: (-row[1], row[0]))  # fmt: skip
    upcoming = [row["next_due"] for row in rows if row["next_due"] is not None]
    unfinished = QuizSession.objects.select_related("deck").filter(_VISIBLE, user=user, finished_at__isnull=True)
    unfinished = with_asked_count(unfinished).order_by("-created_at").first()
    return Today(
        due=sum(n for _, n in due_by_deck),
        due_by_deck=due_by_deck,
        next_due=min(upcoming, default=None),
        unfinished=unfinished,
        decks={row["deck_id"]: DeckStudy(row["seen"], row["due_now"], row["mastered"]) for row in rows},
    )


@dataclass(frozen=True)
class CardHistory:
    answers: list[Answer]  # the latest first, at most the limit asked
    total: int
    state: CardState | None  # the card's review schedule, once answered
    now: datetime

    @property
    def due(self) -> bool:
        return self.state is not None and self.state.set_aside_at is None and self.state.due <= self.now

    @property
    def mastered(self) -> bool:
        return is_mastered(self.state, now=self.now)


def card_history(*, user: AbstractBaseUser, card: Card, limit: int = 5) -> CardHistory:
    """The user's latest answers to one card, how many in all, and when it comes back: two queries."""
    answers = list(
        Answer.objects.filter(user=user, card=card)
        .select_related("item")
        .only(
            "answered_at", "mode", "revealed", "final_verdict", "final_score", "override_verdict", "session_id",
            "item__position",
        )
        .annotate(total=Window(Count("pk")))
        .order_by("-answered_at", "-pk")[:limit]
    )  # fmt: skip
    state = (
        CardState.objects.filter(user=user, card=card).only("due", "state", "mastered_until", "set_aside_at").first()
    )
    total = answers[0].total if answers else 0
    return CardHistory(answers=answers, total=total, state=state, now=timezone.now())


@dataclass(frozen=True)
class CardStanding:
    """Where a card stands with the user, for a deck's list: not yet answered, due, mastered, or coming back."""

    due: datetime | None  # None: never answered
    mastered: bool
    now: datetime
    aside: bool = False

    @property
    def status(self) -> str:
        if self.due is None:
            return "new"
        if self.aside:
            return "aside"
        if self.due <= self.now:
            return "due"
        return "mastered" if self.mastered else "learning"


@dataclass(frozen=True)
class DeckStanding:
    rows: list[tuple[Card, CardStanding | None]]  # None for a reader not signed in

    @property
    def due(self) -> int:
        return sum(standing is not None and standing.status == "due" for _, standing in self.rows)


def deck_standing(*, user: AbstractBaseUser, cards: list[Card], now: datetime | None = None) -> DeckStanding:
    """Each card of a deck's list with where it stands with the user (a CardStanding): one query."""
    now = now or timezone.now()
    states = {
        state.card_id: state
        for state in CardState.objects.filter(user=user, card__in=[card.pk for card in cards]).only(
            "card_id", "due", "state", "mastered_until", "set_aside_at"
        )
    }
    rows = []
    for card in cards:
        state = states.get(card.pk)
        mastered = is_mastered(state, now=now)
        aside = state is not None and state.set_aside_at is not None
        rows.append((card, CardStanding(due=state.due if state else None, mastered=mastered, now=now, aside=aside)))
    return DeckStanding(rows=rows)


def activity_recent(*, user: AbstractBaseUser, now: datetime | None = None) -> Activity:
    """The user's answers per day of the last weeks, in the reader's time zone: one query."""
    zone = timezone.get_current_timezone()
    today = timezone.localdate(now or timezone.now(), zone)
    start = datetime.combine(first_day(today), datetime.min.time(), tzinfo=zone)
    rows = (
        Answer.objects.filter(user=user, answered_at__gte=start)
        .annotate(day=TruncDate("answered_at", tzinfo=zone))
        .values("day")
        .annotate(count=Count("pk"))
        .values_list("day", "count")
    )
    return activity(dict(rows), today=today)


def days_ahead_end(*, now: datetime, days: int = 7) -> datetime:
    """The end of the `days` calendar days from today, in the reader's time zone: "the next 7 days" of My
    progress, for its table and its forecast alike, so that their counts agree."""
    zone = timezone.get_current_timezone()
    return datetime.combine(timezone.localdate(now, zone) + timedelta(days=days), datetime.min.time(), tzinfo=zone)


def reviews_forecast(*, user: AbstractBaseUser, now: datetime | None = None, days: int = 7) -> Forecast:
    """The user's reviews falling due each day of the next week, in the reader's time zone: one query."""
    zone = timezone.get_current_timezone()
    now = now or timezone.now()
    today = timezone.localdate(now, zone)
    end = days_ahead_end(now=now, days=days)
    rows = (
        cards_studied(user=user)
        .filter(KEPT, due__lt=end)
        .annotate(day=TruncDate("due", tzinfo=zone))
        .values("day")
        .annotate(count=Count("pk"))
        .values_list("day", "count")
    )
    return forecast(dict(rows), today=today, days=days)
