"""The seed load: `load_content` creates or updates decks and cards from parsed seed files, all or nothing, keeping
what instructors edited in the admin (a conflict, unless --overwrite)."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction
from django.db.models import Prefetch

from apps.common.db import name_lock, rollback_dry_run

from .answers import normal_text
from .loader import LoaderError, ParsedCard, ParsedDeck, formula_refused
from .models import Card, Deck, Distractor, content_hash
from .rendering import Rendered, formula_refusal, render
from .selectors import cards_asking, deck_titled
from .services import DECK_WRITES_LOCK, card_save


@dataclass
class LoadReport:
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    orphaned: list[str] = field(default_factory=list)
    decks_created: list[str] = field(default_factory=list)
    decks_updated: list[str] = field(default_factory=list)

    def summary(self) -> str:
        text = f"{len(self.created)} created, {len(self.updated)} updated, {len(self.unchanged)} unchanged"
        if self.conflicts:
            text += f", {len(self.conflicts)} conflicts (kept as edited; use --overwrite)"
        return text


_CARD_FIELDS = ("kind", "question", "answer", "short_answer", "explanation")


def _label(deck: Deck, position: int, question: str) -> str:
    flat = " ".join(question.split())
    return f"{deck.slug} #{position}: {flat[:70]}{'…' if len(flat) > 70 else ''}"


def _parsed_hash(parsed: ParsedCard) -> str:
    return content_hash(**{name: getattr(parsed, name) for name in _CARD_FIELDS})


def _match(existing: list[Card], parsed_cards: list[ParsedCard]) -> dict[int, Card]:
    """Pairs each parsed card (by index) with the stored card it updates.

    A card is found by its question first; failing that, a loaded card at the same
    position whose question is gone from the file is taken to be that question, edited.
    """
    by_key = {card.source_key: card for card in existing if card.source_key}
    pairs = {i: by_key[p.key] for i, p in enumerate(parsed_cards) if p.key in by_key}
    taken = {card.pk for card in pairs.values()}
    by_position = {card.position: card for card in existing if card.source_key and card.pk not in taken}
    for i, _parsed in enumerate(parsed_cards):
        if i not in pairs and (card := by_position.get(i + 1)) is not None:
            pairs[i] = card
    return pairs


def _title_free(parsed: ParsedDeck, *, deck: Deck | None) -> None:
    """LoaderError at the title line when another deck has the file's title (the deck_title_unique constraint)."""
    if taken := deck_titled(title=parsed.title, other_than=deck.pk if deck else None):
        said = f"another deck ({taken.slug}) is titled {taken.title!r} already; give this file a title of its own"
        raise LoaderError(parsed.path, parsed.title_line, said)


def _deck_load(parsed: ParsedDeck, *, report: LoadReport, overwrite: bool) -> None:
    deck = Deck.objects.filter(slug=parsed.slug).first()
    source = parsed.file_name
    if deck is None or deck.title != parsed.title:
        _title_free(parsed, deck=deck)
    if deck is None:
        deck = Deck.objects.create(slug=parsed.slug, title=parsed.title, source=source)
        report.decks_created.append(deck.slug)
    elif (deck.title, deck.source) != (parsed.title, source):
        deck.title, deck.source = parsed.title, source
        deck.save(update_fields=["title", "source", "updated_at"])
        report.decks_updated.append(deck.slug)

    # Locked: an admin edit still being saved is waited for and then seen (a conflict, kept), not overwritten.
    locked = deck.cards.order_by("position").select_for_update(no_key=True, of=("self",))
    existing = list(locked.prefetch_related(Prefetch("distractors", queryset=Distractor.objects.order_by("position"))))
    pairs = _match(existing, parsed.cards)
    positions = {card.pk: card.position for card in existing}  # as the admin shows them, before any moves aside
    matched = {card.pk for card in pairs.values()}
    last_position = max([len(parsed.cards), *(card.position for card in existing)], default=0)
    for card in existing:
        if card.pk not in matched and card.position <= len(parsed.cards):
            # Cards no longer in the file keep their history; they move out of the way.
            last_position += 1
            card.position = last_position
            card.save(update_fields=["position", "updated_at"])
        if card.pk not in matched and card.source_key:
            report.orphaned.append(_label(deck, card.position, card.question))

    for index, item in enumerate(parsed.cards):
        position, new_hash = index + 1, _parsed_hash(item)
        label = _label(deck, position, item.question)
        card = pairs.get(index)
        if card is None:
            card = Card(deck=deck, position=position, source_key=item.key, source_hash=new_hash)
            for name in _CARD_FIELDS:
                setattr(card, name, getattr(item, name))
            _card_load(card, item, parsed=parsed, distractors=[d.text for d in item.distractors])
            report.created.append(label)
            pairs[index] = card
            continue
        distractors = _distractors_to_load(card, item, overwrite=overwrite, report=report, label=label)
        source_changed = new_hash != card.source_hash or card.source_key != item.key
        edited_here = card.content_hash() != card.source_hash
        if source_changed and edited_here and card.content_hash() != new_hash and not overwrite:
            # The edit stands, but the card still takes its place in the file's order (and the seed's new
            # distractors, unless they were edited too).
            report.conflicts.append(label)
            if distractors is not None:
                card.position = position
                _card_load(card, item, parsed=parsed, distractors=distractors)
            elif card.position != position:
                card.position = position
                card.save(update_fields=["position", "updated_at"])
            continue
        if not source_changed and card.position == position and distractors is None:
            report.unchanged.append(label)
            continue
        if source_changed:
            for name in _CARD_FIELDS:
                setattr(card, name, getattr(item, name))
            card.source_key, card.source_hash = item.key, new_hash
        card.position = position
        _card_load(card, item, parsed=parsed, distractors=distractors)
        report.updated.append(label)
    _questions_own(parsed, deck=deck, loaded=pairs, positions=positions)


def _questions_own(parsed: ParsedDeck, *, deck: Deck, loaded: dict[int, Card], positions: dict[int, int]) -> None:
    """LoaderError at the line of a seed question that a card of the deck asks, other than the card loaded from it:
    one added in the admin, or reworded there (an edit a load keeps). The deck would ask it twice; content_load's
    transaction then writes nothing. Checked as the cards now stand, written or kept (`loaded`: each parsed card's,
    by its index); the card is named at its position before the load (`positions`), where the admin shows it."""
    own = [card.pk for i, card in loaded.items() if normal_text(card.question) == normal_text(parsed.cards[i].question)]
    taken = cards_asking(deck=deck, questions=[item.question for item in parsed.cards], other_than=own)
    if not taken:
        return
    holder, lines = taken[0], {card.pk: parsed.cards[i].line for i, card in loaded.items()}
    item = next(item for item in parsed.cards if normal_text(item.question) == normal_text(holder.question))
    if holder.pk in lines:
        origin = f"loaded from line {lines[holder.pk]}, its question reworded in the admin since"
    else:
        origin = "reworded in the admin" if holder.source_key else "added in the admin"
    archived = "archived " if holder.archived else ""
    raise LoaderError(
        parsed.path,
        item.line,
        f"the {archived}card at position {positions.get(holder.pk, holder.position)} of {deck} ({origin}) asks "
        "this question already, and a deck asks each question once: reword or delete one of the two, in the admin "
        "or in this file, then load again",
    )


def _distractors_to_load(
    card: Card, item: ParsedCard, *, overwrite: bool, report: LoadReport, label: str
) -> list[str] | None:
    """The seed's distractors when they changed since the last load and the admin left the card's alone
    (or --overwrite); None to keep what the card has."""
    seed = [distractor.text for distractor in item.distractors]
    if seed == card.source_distractors:
        return None
    stored = [distractor.text for distractor in card.distractors.all()]
    if stored not in (card.source_distractors, seed) and not overwrite:
        report.conflicts.append(f"{label} (its distractors)")
        return None
    return seed


def _card_load(card: Card, item: ParsedCard, *, parsed: ParsedDeck, distractors: list[str] | None) -> None:
    if distractors is not None:
        card.source_distractors = distractors
    known = _rendered_or_refused(card, parsed=parsed, item=item, distractors=distractors is not None)
    card_save(card=card, note=f"Loaded from {parsed.file_name}", known=known, distractors=distractors)


def _rendered_or_refused(card: Card, *, parsed: ParsedDeck, item: ParsedCard, distractors: bool) -> dict[str, Rendered]:
    """The card's texts (and the seed's distractors, if they are written) rendered, for card_save; LoaderError
    at the line of the question, answer or explanation that holds a formula KaTeX rejects, or the distractor's.

    Stored as it is, such a card would show KaTeX's error box to students; the admin and the deck import
    refuse the same formula. Only cards being written are checked, each text typeset once.
    """
    rendered = {}
    for name in Card.RENDERED_FIELDS:
        text = getattr(card, name)
        rendered[text] = render(text)
        for formula, message in rendered[text].errors:
            raise formula_refused(path=parsed.path, card=item, field=name, problem=formula_refusal(formula, message))
    for distractor in item.distractors if distractors else ():
        rendered[distractor.text] = render(distractor.text)
        for formula, message in rendered[distractor.text].errors:
            raise LoaderError(distractor.path, distractor.line, formula_refusal(formula, message))
    return rendered


def content_load(*, decks: list[ParsedDeck], overwrite: bool = False, dry_run: bool = False) -> LoadReport:
    """Creates or updates decks and cards from parsed seed files, all or nothing."""
    report = LoadReport()
    with transaction.atomic():
        name_lock(DECK_WRITES_LOCK)
        for parsed in decks:
            _deck_load(parsed, report=report, overwrite=overwrite)
        if dry_run:
            rollback_dry_run()
    return report
