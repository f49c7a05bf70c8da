from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Max, Prefetch, QuerySet

from apps.common.db import rollback_dry_run
from apps.content.models import Card, Deck, Distractor
from apps.content.rendering import tex_errors
from apps.content.services import VERSIONED_FIELDS, card_save, card_snapshot, card_version_record

from .transfer import CARD_LIST_FIELDS, CARD_TEXT_FIELDS, FORMAT, FORMAT_VERSION, TransferError


def deck_export(*, deck: Deck) -> dict:
    """The deck, its cards, aliases, distractors and key terms, in a fixed order. Four queries."""
    cards = deck.cards.order_by("position").prefetch_related(
        "aliases", Prefetch("distractors", queryset=Distractor.objects.order_by("position", "pk")), "key_terms"
    )
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "deck": {"slug": deck.slug, "title": deck.title, "description": deck.description, "source": deck.source},
        "cards": [
            {
                "uid": str(card.uid),
                "position": card.position,
                "kind": card.kind,
                **{name: getattr(card, name) for name in CARD_TEXT_FIELDS},
                "archived": card.archived,
                "aliases": [alias.text for alias in card.aliases.all()],
                "distractors": [distractor.text for distractor in card.distractors.all()],
                "key_terms": [term.term for term in card.key_terms.all()],
            }
            for card in cards
        ],
    }


@dataclass
class ImportReport:
    deck_created: bool = False
    created: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)

    def summary(self) -> str:
        deck = "new deck" if self.deck_created else "existing deck"
        return f"{deck}: {len(self.created)} created, {len(self.updated)} updated, {len(self.unchanged)} unchanged"


def _tex_check(data: dict) -> None:
    for index, card in enumerate(data["cards"]):
        for name in ("question", "answer", "explanation"):
            for formula, message in tex_errors(card[name]):
                raise TransferError(f"card {index + 1} ({card['uid']}), field {name}", f"${formula}$: {message}")


def _snapshot(card: Card) -> dict:
    snapshot = card_snapshot(card)
    return {"position": card.position, **{name: snapshot[name] for name in VERSIONED_FIELDS}}


def deck_import(
    *, data: dict, author: AbstractBaseUser | None = None, dry_run: bool = False, source: str = ""
) -> ImportReport:
    """Creates or updates the deck and its cards by slug and uid, all in one transaction."""
    _tex_check(data)
    report = ImportReport()
    note = f"Imported from {source}" if source else "Imported"
    with transaction.atomic():
        deck_data = data["deck"]
        deck = Deck.objects.select_for_update().filter(slug=deck_data["slug"]).first()
        report.deck_created = deck is None
        deck = deck or Deck(slug=deck_data["slug"])
        if report.deck_created or any(getattr(deck, k) != v for k, v in deck_data.items()):
            for name, value in deck_data.items():
                setattr(deck, name, value)
            deck.save()
        existing = {str(card.uid): card for card in Card.objects.filter(uid__in=[c["uid"] for c in data["cards"]])}
        for uid, card in existing.items():
            if card.deck_id != deck.pk:
                raise TransferError(f"card {uid}", f"belongs to the deck {card.deck.slug!r}, not {deck.slug!r}")
        # Cards of this deck that the file does not mention step aside from the positions it uses.
        taken = {c["position"] for c in data["cards"]}
        top = max([*taken, deck.cards.aggregate(top=Max("position"))["top"] or 0])
        for other in deck.cards.exclude(uid__in=list(existing)).filter(position__in=taken).order_by("position"):
            top += 1
            other.position = top
            other.save(update_fields=["position", "updated_at"])
        for item in data["cards"]:
            card = existing.get(item["uid"])
            label = f"#{item['position']} {' '.join(item['question'].split())[:70]}"
            wanted = {k: item[k] for k in ("kind", "position", "archived", *CARD_TEXT_FIELDS, *CARD_LIST_FIELDS)}
            if card is not None and _snapshot(card) == wanted:
                report.unchanged.append(label)
                continue
            (report.created if card is None else report.updated).append(label)
            card = card or Card(uid=item["uid"], deck=deck)
            for name in ("kind", "position", "archived", *CARD_TEXT_FIELDS):
                setattr(card, name, item[name])
            card_save(card=card, author=author, note=note, **{name: item[name] for name in CARD_LIST_FIELDS})
        if dry_run:
            rollback_dry_run()
    return report


def cards_archive(*, cards: QuerySet[Card], archived: bool, author: AbstractBaseUser) -> int:
    """Archives (or restores) the cards, each with a version saying so: all of them or none. Returns the count."""
    count = 0
    with transaction.atomic():
        # The admin's queryset carries list annotations; lock plain rows instead.
        chosen = Card.objects.filter(pk__in=cards.values("pk"), archived=not archived).order_by("pk")
        for card in chosen.select_for_update():
            card.archived = archived
            card.save(update_fields=["archived", "updated_at"])
            card_version_record(card=card, author=author, note="Archived" if archived else "Restored")
            count += 1
    return count
