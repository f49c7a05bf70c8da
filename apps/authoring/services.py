from __future__ import annotations

import uuid
from dataclasses import dataclass, field

from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Prefetch, QuerySet
from django.utils import timezone
from django.utils.text import Truncator

from apps.common.db import name_lock, rollback_dry_run
from apps.content.answers import normal_text
from apps.content.models import Alias, Card, CardVersion, Deck, Distractor, KeyTerm, style_rules_add
from apps.content.rendering import Rendered, formula_excerpt, render
from apps.content.selectors import deck_titled
from apps.content.services import DECK_WRITES_LOCK, card_snapshot, card_version_record, version_is_current

from .clashes import questions_taken
from .problems import Problem, TransferError
from .selectors import deck_fingerprint
from .transfer import CARD_LIST_FIELDS, CARD_TEXT_FIELDS, FORMAT, FORMAT_VERSION

# Everything an import may do: create and change decks and cards.
IMPORT_PERMISSIONS = ("content.add_deck", "content.change_deck", "content.add_card", "content.change_card")
# A bulk UPDATE is one CASE over its rows; batches keep each statement's cost linear.
BULK_UPDATE_BATCH = 500


def _lists_prefetch() -> tuple[Prefetch, ...]:
    """A card's aliases, distractors and key terms, in the order card_snapshot and the files list them."""
    return (
        Prefetch("aliases", queryset=Alias.objects.order_by("pk")),
        Prefetch("distractors", queryset=Distractor.objects.order_by("position", "pk")),
        Prefetch("key_terms", queryset=KeyTerm.objects.order_by("pk")),
    )


# A card's fields as a changed card of an import names them.
CHANGED_WORDS = {
    "kind": "kind", "position": "position", "archived": "archived", "question": "question", "answer": "answer",
    "short_answer": "short answer", "explanation": "explanation", "aliases": "accepted answers",
    "distractors": "distractors", "key_terms": "key terms",
}  # fmt: skip


def _card_data(card: Card) -> dict:
    """A card as an export file holds it, but for its uid (its lists prefetched with _lists_prefetch)."""
    return {
        "position": card.position,
        "kind": card.kind,
        **{name: getattr(card, name) for name in CARD_TEXT_FIELDS},
        "archived": card.archived,
        "aliases": [alias.text for alias in card.aliases.all()],
        "distractors": [distractor.text for distractor in card.distractors.all()],
        "key_terms": [term.term for term in card.key_terms.all()],
    }


def deck_export(*, deck: Deck) -> dict:
    """The deck, its cards, aliases, distractors and key terms, in a fixed order. Four queries."""
    cards = deck.cards.order_by("position").prefetch_related(*_lists_prefetch())
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "deck": {"slug": deck.slug, "title": deck.title, "description": deck.description, "source": deck.source},
        "cards": [{"uid": str(card.uid), **_card_data(card)} for card in cards],
    }


class DeckChangedError(Exception):
    """The deck is no longer as the dry run being confirmed saw it: its cards were saved, added or moved since."""

    def __init__(self, *, title: str) -> None:
        super().__init__(f"the deck {title!r} changed since its dry run")
        self.title = title


@dataclass
class ImportReport:
    deck_title: str = ""
    deck_created: bool = False
    deck_changed: bool = False  # its title or description
    deck_published: bool = True  # whether students see the deck (and so the cards written) once imported
    deck_id: int | None = None  # after a real import; a dry run's new deck is rolled back
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    # The deck's cards the file does not hold: an import adds and changes cards, never deletes one.
    not_in_file: int = 0
    deck_state: str = ""  # the deck as a dry run or a confirmation found it (deck_fingerprint)

    @property
    def changes_anything(self) -> bool:
        return self.deck_created or self.deck_changed or bool(self.created or self.updated)

    def summary(self) -> str:
        deck = "new deck" if self.deck_created else "existing deck"
        said = f"{deck}: {len(self.created)} created, {len(self.updated)} updated, {len(self.unchanged)} unchanged"
        if self.not_in_file:
            said += f"; {self.not_in_file} card{'s' if self.not_in_file > 1 else ''} of the deck not in the file, kept"
        return said


def _texts_render(data: dict) -> dict[str, Rendered]:
    """Every text of the file that is stored rendered, by text, each distinct text once: the deck's description,
    and each card's question, answer, explanation and distractors.

    Raises TransferError naming each formula KaTeX rejects and its field, as the admin's forms refuse it
    (RenderedForm), before anything is written, where the file's other problems are named (data["places"]):
    `line 14, card #2, field answer` in JSON, `row 3, field answer` in CSV; a distractor by its entry in the
    card's list, from 1 as cards are counted (`row 3, field distractors, entry #2`).
    The import writes these results (RenderedFields.render's `known`): checking the TeX by typesetting it and
    then rendering the text typeset each formula twice.
    """
    rendered: dict[str, Rendered] = {}
    problems: list[Problem] = []

    def check(text: str, where: str) -> None:
        if text not in rendered:
            rendered[text] = render(text)
        problems.extend(
            Problem(where, f"{formula_excerpt(formula)}: {message}") for formula, message in rendered[text].errors
        )

    deck, places = data["deck"], data["places"]
    for name in Deck.RENDERED_FIELDS:
        check(deck[name], places["deck"](name))
    for card, where in zip(data["cards"], places["cards"], strict=True):
        for name in Card.RENDERED_FIELDS:
            check(card[name], where(name))
        for position, text in enumerate(card["distractors"]):
            check(text, where("distractors", position))
    if problems:
        raise TransferError.of(problems)
    return rendered


def _cards_write(
    *,
    written: list[tuple[Card, dict]],
    rendered: dict[str, Rendered],
    author: AbstractBaseUser | None,
    note: str,
) -> None:
    """Saves the cards, their lists and a version of each, rendered, in a number of queries that does not grow
    with the number of cards: what card_save does one card at a time. `rendered` holds the cards' texts and
    distractors rendered already (_texts_render)."""
    now = timezone.now()
    styles: dict[str, str] = {}
    distractors: list[Distractor] = []
    for card, item in written:
        for name in ("kind", "position", "archived", *CARD_TEXT_FIELDS):
            setattr(card, name, item[name])
        card.render(styles=styles, known=rendered)
        card.updated_at = now
        for position, text in enumerate(item["distractors"]):
            distractor = Distractor(card=card, text=text, position=position)
            distractor.render(styles=styles, known=rendered)
            distractors.append(distractor)
    style_rules_add(styles)
    new = [card for card, _ in written if card.pk is None]
    changed = [card for card, _ in written if card.pk is not None]
    Card.objects.bulk_create(new)
    if changed:
        fields = ["kind", "position", "archived", *CARD_TEXT_FIELDS, *Card.stored_fields(), "updated_at"]
        Card.objects.bulk_update(changed, fields, batch_size=BULK_UPDATE_BATCH)
        for model in (Alias, Distractor, KeyTerm):
            model.objects.filter(card__in=changed).delete()
    # In list order, so the primary keys keep it (card_snapshot orders by them).
    Alias.objects.bulk_create([Alias(card=card, text=text) for card, item in written for text in item["aliases"]])
    Distractor.objects.bulk_create(distractors)  # built in list order above; the new cards have their keys now
    KeyTerm.objects.bulk_create([KeyTerm(card=card, term=term) for card, item in written for term in item["key_terms"]])

    # Versions as card_version_record makes them: none when the versioned content is as last recorded.
    latest = {
        version.card_id: version
        for version in CardVersion.objects.filter(card__in=changed).order_by("card_id", "-number").distinct("card_id")
    }
    author = author if author is not None and author.is_authenticated else None
    versions, pointed = [], []
    for card, item in written:
        data = card_snapshot(card, lists={name: item[name] for name in CARD_LIST_FIELDS})
        current = latest.get(card.pk)
        if version_is_current(current, data):
            if card.current_version_id != current.pk:
                card.current_version = current
                pointed.append(card)
            continue
        number = current.number + 1 if current is not None else 1
        version = CardVersion(card=card, number=number, author=author, note=note, data=data)
        versions.append(version)
        pointed.append(card)
        card.current_version = version
    CardVersion.objects.bulk_create(versions)
    for card in pointed:
        card.current_version_id = card.current_version.pk  # the new versions have their keys now
    Card.objects.bulk_update(pointed, ["current_version"], batch_size=BULK_UPDATE_BATCH)


def _step_aside(*, deck: Deck, taken: set[int], kept: list[str]) -> None:
    """Cards of this deck that the file does not mention move out of the positions it uses, after the last."""
    top = max([*taken, deck.cards.aggregate(top=Max("position"))["top"] or 0])
    aside = list(deck.cards.exclude(uid__in=kept).filter(position__in=taken).order_by("position"))
    for other in aside:
        top += 1
        other.position, other.updated_at = top, timezone.now()
    Card.objects.bulk_update(aside, ["position", "updated_at"], batch_size=BULK_UPDATE_BATCH)


def _uids_by_question(*, deck: Deck, cards: list[dict]) -> None:
    """A card given without a uid (a file written by hand) is the deck's card with the same question, if one is
    not claimed by its uid in the file, else a new card: importing the file again updates, not duplicates."""
    keyed = [item["uid"] for item in cards if item["uid"]]
    # Compared as the loader and the forms compare texts (letter case and runs of whitespace aside): a trailing
    # space or a Windows line end in a hand-written file is the same question, not a new card.
    by_question = (
        {normal_text(q): str(uid) for q, uid in deck.cards.exclude(uid__in=keyed).values_list("question", "uid")}
        if deck.pk is not None
        else {}
    )
    for item in cards:
        if not item["uid"]:
            item["uid"] = by_question.pop(normal_text(item["question"]), None) or str(uuid.uuid4())


def deck_import(
    *,
    data: dict,
    author: AbstractBaseUser | None = None,
    dry_run: bool = False,
    source: str = "",
    publish_new: bool = True,
    expected_state: str | None = None,
) -> ImportReport:
    """Creates or updates the deck and its cards by slug and uid, all in one transaction. A deck it creates is
    published unless `publish_new` is false; an existing deck keeps its own state.

    `expected_state`: the deck as the dry run being confirmed found it (its report's deck_state). Raises
    DeckChangedError, writing nothing, when the deck is otherwise now: the dry run's summary is not what this would
    do, and a card edited meanwhile would be put back to the file's text unseen.

    Each written card is rendered and versioned as card_save would, but in bulk: the number of queries
    does not grow with the number of cards.
    """
    rendered = _texts_render(data)
    report = ImportReport()
    note = f"Imported from {source}" if source else "Imported"
    with transaction.atomic():
        # The file's `source` is the seed file the deck was loaded from where it was exported: not imported, so
        # neither a copy nor a deck imported here claims a seed it was never loaded from (a new deck has none,
        # an existing one keeps its own).
        deck_data = {name: value for name, value in data["deck"].items() if name != "source"}
        deck_data["title"] = " ".join(deck_data["title"].split())
        # One import (or seed load) at a time: two of a new slug (a double click) would both create the deck,
        # and two files with the same cards would both insert them. Imports are rare; taking turns costs nothing.
        name_lock(DECK_WRITES_LOCK)
        # NO KEY UPDATE, as card_version_record: rows referencing the deck (an admin's card save) are not held up.
        deck = Deck.objects.select_for_update(no_key=True).filter(slug=deck_data["slug"]).first()
        # Under the lock, which admin saves of the deck's cards take too: none can come between this and the writes.
        if dry_run or expected_state is not None:
            report.deck_state = deck_fingerprint(deck=deck)
        if expected_state is not None and report.deck_state != expected_state:
            raise DeckChangedError(title=deck.title if deck is not None else deck_data["title"])
        report.deck_created = deck is None
        deck = deck or Deck(slug=deck_data["slug"])
        report.deck_title = deck_data["title"]
        report.deck_published = publish_new if report.deck_created else deck.published
        report.deck_changed = not report.deck_created and any(getattr(deck, k) != v for k, v in deck_data.items())
        # A new deck's title is "" until set: checked too. One kept as it was is no other deck's (a constraint).
        if deck_data["title"] != deck.title and (taken := deck_titled(title=deck_data["title"], other_than=deck.pk)):
            said = f"a deck is titled {taken.title!r} already (its slug: {taken.slug}): give this one another title"
            raise TransferError.of([Problem(data["places"]["deck"]("title"), said)])
        if report.deck_created or report.deck_changed:
            for name, value in deck_data.items():
                setattr(deck, name, value)
            if report.deck_created:
                deck.published = publish_new
            deck.save(known=rendered)
        if any(not item["uid"] for item in data["cards"]):
            _uids_by_question(deck=deck, cards=data["cards"])
        found = (
            Card.objects.select_for_update(no_key=True, of=("self",))
            .select_related("deck")
            .filter(uid__in=[c["uid"] for c in data["cards"]])
            .prefetch_related(*_lists_prefetch())
        )
        existing = {str(card.uid): card for card in found}
        foreign = [
            Problem(where("uid"), f"{item['uid']} is a card of the deck {card.deck.slug!r}, not {deck.slug!r}")
            for item, where in zip(data["cards"], data["places"]["cards"], strict=True)
            if (card := existing.get(item["uid"])) is not None and card.deck_id != deck.pk
        ]
        if foreign:
            raise TransferError.of(foreign)
        # Under the lock, before any card is written: a card added meanwhile is seen, and a refused file leaves the
        # deck as it was. The cards the file updates ask the file's questions, which parse() compared already.
        updated = [card.pk for card in existing.values()]
        if not report.deck_created and (taken := questions_taken(deck=deck, data=data, updated=updated)):
            raise TransferError.of(taken)
        if not report.deck_created:
            _step_aside(deck=deck, taken={c["position"] for c in data["cards"]}, kept=list(existing))
            report.not_in_file = deck.cards.exclude(uid__in=list(existing)).count()
        written = []
        for item in data["cards"]:
            card = existing.get(item["uid"])
            label = f"#{item['position']} {Truncator(' '.join(item['question'].split())).chars(70)}"
            wanted = {k: item[k] for k in ("kind", "position", "archived", *CARD_TEXT_FIELDS, *CARD_LIST_FIELDS)}
            if card is None:
                report.created.append(label)
            elif (now := _card_data(card)) == wanted:
                report.unchanged.append(label)
                continue
            else:
                # What changed, so that the dry run shows an author more than "changed" before they confirm.
                changed = ", ".join(CHANGED_WORDS[name] for name in wanted if now[name] != wanted[name])
                report.updated.append(f"{label} ({changed})")
            written.append((card or Card(uid=item["uid"], deck=deck), item))
        added = [card for card, _ in written if card.pk is None]
        changed = [card for card, _ in written if card.pk is not None]
        _cards_write(written=written, rendered=rendered, author=author, note=note)
        report.deck_id = None if dry_run else deck.pk
        if author is not None and author.is_authenticated:
            # In the admin's History of each card, as its saves and reverts are: who imported what, and when.
            for flag, cards in ((ADDITION, added), (CHANGE, changed)):
                if cards:
                    LogEntry.objects.log_actions(author.pk, cards, flag, note)
        if dry_run:
            rollback_dry_run()
    return report


def cards_archive(*, cards: QuerySet[Card], archived: bool, author: AbstractBaseUser) -> int:
    """Archives (or restores) the cards, each with a version saying so: all of them or none. Returns the count."""
    count = 0
    with transaction.atomic():
        # The admin's queryset carries list annotations; lock plain rows instead.
        chosen = Card.objects.filter(pk__in=cards.values("pk"), archived=not archived).order_by("pk")
        for card in chosen.select_for_update(no_key=True):
            card.archived = archived
            card.save(update_fields=["archived", "updated_at"])
            card_version_record(card=card, author=author, note="Archived" if archived else "Restored")
            count += 1
    return count
