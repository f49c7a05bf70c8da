from __future__ import annotations

from dataclasses import dataclass, field

from django.db import transaction

from .loader import ParsedCard, ParsedDeck
from .models import Card, Deck, content_hash
from .rendering import render_markdown


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


def _deck_load(parsed: ParsedDeck, *, report: LoadReport, overwrite: bool) -> None:
    deck = Deck.objects.filter(slug=parsed.slug).first()
    source = parsed.path.rsplit("/", 1)[-1]
    if deck is None:
        deck = Deck.objects.create(slug=parsed.slug, title=parsed.title, source=source)
        report.decks_created.append(deck.slug)
    elif (deck.title, deck.source) != (parsed.title, source):
        deck.title, deck.source = parsed.title, source
        deck.save(update_fields=["title", "source", "updated_at"])
        report.decks_updated.append(deck.slug)

    existing = list(deck.cards.all())
    pairs = _match(existing, parsed.cards)
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
        card = pairs.get(index)
        if card is None:
            card = Card(deck=deck, position=position, source_key=item.key, source_hash=new_hash)
            for name in _CARD_FIELDS:
                setattr(card, name, getattr(item, name))
            card.save()
            report.created.append(_label(deck, position, item.question))
            continue
        source_changed = new_hash != card.source_hash or card.source_key != item.key
        edited_here = card.content_hash() != card.source_hash
        if source_changed and edited_here and card.content_hash() != new_hash and not overwrite:
            report.conflicts.append(_label(deck, card.position, card.question))
            continue
        if not source_changed and card.position == position:
            report.unchanged.append(_label(deck, position, item.question))
            continue
        if source_changed:
            for name in _CARD_FIELDS:
                setattr(card, name, getattr(item, name))
            card.source_key, card.source_hash = item.key, new_hash
        card.position = position
        card.save()
        report.updated.append(_label(deck, position, item.question))


def content_load(*, decks: list[ParsedDeck], overwrite: bool = False, dry_run: bool = False) -> LoadReport:
    """Creates or updates decks and cards from parsed seed files, all or nothing."""
    report = LoadReport()
    with transaction.atomic():
        for parsed in decks:
            _deck_load(parsed, report=report, overwrite=overwrite)
        if dry_run:
            transaction.set_rollback(True)
    return report


def content_rerender() -> int:
    """Re-renders every stored HTML field, e.g. after a KaTeX upgrade. Returns the rows changed."""
    changed = 0
    with transaction.atomic():
        for deck in Deck.objects.select_for_update():
            html = render_markdown(deck.description)
            if html != deck.description_html:
                Deck.objects.filter(pk=deck.pk).update(description_html=html)
                changed += 1
        for card in Card.objects.select_for_update().iterator(chunk_size=200):
            before = {name: getattr(card, name) for name in Card.RENDERED_FIELDS.values()}
            card.render()
            after = {name: getattr(card, name) for name in Card.RENDERED_FIELDS.values()}
            if before != after:
                Card.objects.filter(pk=card.pk).update(**after)
                changed += 1
    return changed
