from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from django.contrib.admin.models import CHANGE, LogEntry
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from apps.common.db import name_lock

from .models import Alias, Card, CardVersion, Deck, Distractor, KeyTerm, style_rules_add
from .rendering import MATH_ERROR_MARK, Rendered, render
from .selectors import cards_asking

# Seed loads and deck imports (apps.authoring) take turns under this advisory lock: each reads a deck's
# cards and then writes them, so two at once would both create the same deck or cards.
DECK_WRITES_LOCK = "deck-import"
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# What a version compares and a diff shows; the *_html fields ride along for display.
VERSIONED_FIELDS = (
    "kind", "question", "answer", "short_answer", "explanation", "archived", "aliases", "distractors", "key_terms",
)  # fmt: skip


class QuestionTakenError(ValueError):
    """Another card of the deck, `card`, asks the question already (selectors.cards_asking)."""

    def __init__(self, *, card: Card) -> None:
        self.card = card
        super().__init__(self.holder())

    def holder(self, question: str = "this question") -> str:
        """Which card asks `question`, for an instructor: "Serving asks this question already, at position 4"."""
        deck, position = self.card.deck, self.card.position
        if self.card.archived:
            return f"{deck} has {question} already, in the archived card at position {position}"
        return f"{deck} asks {question} already, at position {position}"


class CardChangedError(Exception):
    """The card was saved since a page showed it, at its version of id `seen` (0: none): what the page asks for would
    undo that save, or act on a card the page did not show (selectors.card_versions_since says who saved it)."""

    def __init__(self, *, card: Card, seen: int) -> None:
        super().__init__(f"card {card.pk} was saved since its version {seen}")
        self.card, self.seen = card, seen


def card_unchanged_since(*, card: Card, version_id: int) -> None:
    """Locks the card's row until the transaction ends, FOR UPDATE as an answer's regrade needs it; raises
    CardChangedError when its version is no longer the one of id `version_id` (0: it had none)."""
    current = Card.objects.select_for_update().filter(pk=card.pk).values_list("current_version_id", flat=True).first()
    if (current or 0) != version_id:
        raise CardChangedError(card=card, seen=version_id)


def card_mark(card: Card) -> str:
    """What a card's form carries of the card it was made from: its version, and its last save to the microsecond
    (a move to another place or deck is a save that makes no version)."""
    return f"{card.current_version_id or 0}-{(card.updated_at - _EPOCH) // timedelta(microseconds=1)}"


def card_lock_unchanged(*, card: Card, mark: str) -> None:
    """Locks the card's row until the transaction ends, as its save will; raises CardChangedError when the card was
    saved since `mark` (card_mark) was taken, or is gone: a save from what was shown then would undo that save."""
    row = Card.objects.select_for_update(no_key=True).filter(pk=card.pk).only("current_version", "updated_at").first()
    if row is None or card_mark(row) != mark:
        shown = re.fullmatch(r"(\d{1,18})-\d{1,20}", mark, flags=re.ASCII)
        raise CardChangedError(card=row or card, seen=int(shown[1]) if shown else 0)


def card_snapshot(card: Card, *, lists: dict[str, list[str]] | None = None) -> dict:
    """What a version records of the card. `lists` (aliases, distractors, key_terms) saves reading them when
    the caller has them already (a bulk import)."""
    if lists is None:
        lists = {
            "aliases": [alias.text for alias in card.aliases.order_by("pk")],
            "distractors": [distractor.text for distractor in card.distractors.order_by("position", "pk")],
            "key_terms": [term.term for term in card.key_terms.order_by("pk")],
        }
    return {
        "kind": card.kind,
        "question": card.question,
        "answer": card.answer,
        "short_answer": card.short_answer,
        "explanation": card.explanation,
        "archived": card.archived,
        **{name: list(lists[name]) for name in ("aliases", "distractors", "key_terms")},
        "question_html": card.question_html,
        "answer_html": card.answer_html,
        "explanation_html": card.explanation_html,
    }


def version_is_current(current: CardVersion | None, data: dict) -> bool:
    """Whether `current` already records this snapshot's content: then no new version is made."""
    return current is not None and all(current.data.get(name) == data[name] for name in VERSIONED_FIELDS)


def _fitted(note: str, limit: int) -> str:
    # "Loaded from <a file's name>" or "Imported from <an upload's name>": a long name is the user's, not an error.
    return note if len(note) <= limit else note[: limit - 1] + "\u2026"


def card_version_record(*, card: Card, author: AbstractBaseUser | None = None, note: str = "") -> CardVersion:
    """Records the card's content as a new version, unless it equals the current one."""
    with transaction.atomic():
        # NO KEY UPDATE: versions are numbered one at a time, while inserts that merely reference the card
        # (answers, a student's first quiz item) pass; FOR UPDATE would hold up their foreign-key checks.
        Card.objects.select_for_update(no_key=True).filter(pk=card.pk).values("pk").get()
        data = card_snapshot(card)
        current = CardVersion.objects.filter(card=card).order_by("-number").first()
        if version_is_current(current, data):
            version = current
        else:
            number = (CardVersion.objects.filter(card=card).aggregate(top=Max("number"))["top"] or 0) + 1
            author = author if author is not None and author.is_authenticated else None
            note = _fitted(note, CardVersion._meta.get_field("note").max_length)
            version = CardVersion.objects.create(card=card, number=number, author=author, note=note, data=data)
        if card.current_version_id != version.pk:
            Card.objects.filter(pk=card.pk).update(current_version=version)
            card.current_version = version
    return version


def card_save(
    *,
    card: Card,
    author: AbstractBaseUser | None = None,
    note: str = "",
    aliases: list[str] | None = None,
    distractors: list[str] | None = None,
    key_terms: list[str] | None = None,
    known: dict[str, Rendered] | None = None,
) -> Card:
    """Saves (and renders) a card, optionally replacing its aliases, distractors and key terms, and versions it.

    `known`: texts rendered already, as for RenderedFields.render."""
    with transaction.atomic():
        card.save(known=known)
        if aliases is not None:
            card.aliases.all().delete()
            Alias.objects.bulk_create([Alias(card=card, text=text) for text in aliases])
        if distractors is not None:
            card.distractors.all().delete()
            for position, text in enumerate(distractors):
                Distractor(card=card, text=text, position=position).save(known=known)
        if key_terms is not None:
            card.key_terms.all().delete()
            KeyTerm.objects.bulk_create([KeyTerm(card=card, term=term) for term in key_terms])
        card_version_record(card=card, author=author, note=note)
    return card


def card_revert(*, card: Card, version: CardVersion, author: AbstractBaseUser | None) -> CardVersion:
    """Puts back the content of `version`; the result is itself a new version.

    Raises QuestionTakenError, and changes nothing, when another card of the deck asks the old question now."""
    if version.card_id != card.pk:
        raise ValueError("that version belongs to another card")
    data = version.data
    with transaction.atomic():
        # Taking turns with card saves, imports and seed loads, as the card form does: a card given this question
        # meanwhile would pass the check below and the deck would ask it twice.
        name_lock(DECK_WRITES_LOCK)
        if taken := cards_asking(deck=card.deck, questions=[data["question"]], other_than=[card.pk]):
            raise QuestionTakenError(card=taken[0])
        for name in ("kind", "question", "answer", "short_answer", "explanation", "archived"):
            setattr(card, name, data[name])
        card_save(
            card=card,
            author=author,
            note=f"Reverted to version {version.number}",
            aliases=list(data["aliases"]),
            distractors=list(data["distractors"]),
            key_terms=list(data["key_terms"]),
        )
    return card.current_version


@dataclass
class RerenderReport:
    changed: int = 0
    # Fields whose maths this KaTeX refuses though the stored HTML typeset it ("Card 12, answer"): kept as they
    # were, for the author to fix, rather than shown to students as an error box.
    kept: list[str] = field(default_factory=list)


def content_rerender() -> RerenderReport:
    """Re-renders every stored HTML field, e.g. after a KaTeX upgrade. Each distinct text is typeset once: a card's
    versions mostly hold the texts it holds."""
    report, styles, done = RerenderReport(), {}, {}

    def typeset(text: str) -> Rendered:
        if text not in done:
            done[text] = render(text)
            styles.update(done[text].styles)
        return done[text]

    with transaction.atomic():
        for model in (Deck, Card, Distractor):
            targets = model.stored_fields()
            for row in model.objects.select_for_update(no_key=True).order_by("pk").iterator(chunk_size=200):
                before = {name: getattr(row, name) for name in targets}
                known = {getattr(row, source): typeset(getattr(row, source)) for source in model.RENDERED_FIELDS}
                row.render(styles=styles, known=known)
                after = {name: getattr(row, name) for name in targets}
                for source, target in model.RENDERED_FIELDS.items():
                    if known[getattr(row, source)].errors and MATH_ERROR_MARK not in before[target]:
                        after[target] = before[target]
                        if target in model.PLAIN_FIELDS:
                            after[model.PLAIN_FIELDS[target]] = before[model.PLAIN_FIELDS[target]]
                        report.kept.append(f"{model.__name__} {row.pk}, {source}")
                if before != after:
                    model.objects.filter(pk=row.pk).update(**after)
                    report.changed += 1
        for version in CardVersion.objects.select_for_update(no_key=True).iterator(chunk_size=200):
            html = {f"{name}_html": typeset(version.data.get(name, "")).html for name in Card.RENDERED_FIELDS}
            if any(version.data.get(key) != value for key, value in html.items()):
                CardVersion.objects.filter(pk=version.pk).update(data={**version.data, **html})
        style_rules_add(styles)
    return report


def decks_publish(*, decks: list[Deck], published: bool, author: AbstractBaseUser) -> list[Deck]:
    """Publishes the decks, or makes them drafts students do not see; returns those that changed, each logged in its
    admin History as a save from the deck's form is."""
    changed = [deck for deck in decks if deck.published != published]
    if changed:
        with transaction.atomic():
            Deck.objects.filter(pk__in=[deck.pk for deck in changed]).update(
                published=published, updated_at=timezone.now()
            )
            note = "Published" if published else "Made a draft"
            LogEntry.objects.log_actions(author.pk, changed, CHANGE, note)
        for deck in changed:
            deck.published = published
    return changed
