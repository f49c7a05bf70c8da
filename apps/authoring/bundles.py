"""Importing several decks at once: the files of a .zip (the deck list's export of several decks), checked and
then imported together, all or none."""

from __future__ import annotations

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from .holds import CheckedImport, deck_import_check, deck_import_confirm, held_files
from .problems import Problem, TransferError
from .services import ImportReport
from .transfer import MAX_CARDS, parse


def _named(name: str, exc: TransferError) -> list[Problem]:
    """The file's problems, each naming the file first: several files' rows and cards are told apart."""
    problems = [Problem(f"{name}, {problem.where}", problem.message) for problem in exc.problems]
    if exc.more:
        problems.append(Problem(name, f"and {exc.more} more problem{'s' if exc.more > 1 else ''}"))
    return problems


def _clashes(parsed: list[tuple[str, str, dict]]) -> list[Problem]:
    """Two files of the archive for one deck, by slug, or titled alike: each file is checked against the database
    alone, so the check passed them and the import then merged the two decks, or refused the second."""
    problems: list[Problem] = []
    slugs: dict[str, str] = {}
    titles: dict[str, str] = {}
    for name, _text, data in parsed:
        slug, title = data["deck"]["slug"], data["deck"]["title"]
        same = " ".join(title.split()).lower()  # near enough to the LOWER() of the deck_title_unique constraint
        if slug in slugs:
            problems.append(Problem(name, f"its deck's slug {slug} is also the deck of {slugs[slug]}"))
        elif same in titles:
            problems.append(Problem(name, f"its deck is titled “{title}” as the deck of {titles[same]} is"))
        slugs.setdefault(slug, name)
        titles.setdefault(same, name)
    return problems


def deck_imports_check(*, files: list[tuple[str, str]], user: AbstractBaseUser) -> list[CheckedImport]:
    """Each file dry-run and held as deck_import_check does. Raises TransferError with the problems of every file
    that would not import; the cards of all the files count toward one file's limit, since one request imports
    them all."""
    if len(files) == 1:  # a deck file of its own: its problems need no file name
        ((name, text),) = files
        return [deck_import_check(name=name, text=text, user=user)]
    problems: list[Problem] = []
    parsed = []
    for name, text in files:
        try:
            parsed.append((name, text, parse(text, name=name)))
        except TransferError as exc:
            problems += _named(name, exc)
    problems += _clashes(parsed)
    if problems:
        raise TransferError.of(problems)
    cards = sum(len(data["cards"]) for _name, _text, data in parsed)
    if cards > MAX_CARDS:
        raise TransferError("the archive", f"its decks hold {cards:,} cards together; import at most {MAX_CARDS:,}")
    checked = []
    for name, text, data in parsed:
        try:
            checked.append(deck_import_check(name=name, text=text, user=user, data=data))
        except TransferError as exc:
            problems += _named(name, exc)
    if problems:
        raise TransferError.of(problems)
    return checked


def deck_imports_confirm(*, keys: list[str], author: AbstractBaseUser) -> list[tuple[str, ImportReport]]:
    """Imports the checked uploads `keys` name, in one transaction: a file that no longer imports (or is no longer
    held), or a deck changed since its dry run, leaves every deck as it was. Raises what deck_import_confirm raises."""
    with transaction.atomic():
        return [deck_import_confirm(key=key, author=author) for key in keys]


def deck_imports_recheck(*, keys: list[str], user: AbstractBaseUser) -> list[CheckedImport]:
    """The uploads `keys` name dry-run again against the decks as they are now, as deck_imports_check does (their
    holds then expect the decks so). Raises ImportNotHeldError, or what deck_imports_check raises."""
    return deck_imports_check(files=held_files(keys=keys, user=user), user=user)
