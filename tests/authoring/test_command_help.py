"""`manage.py <command> --help` describes every argument of the project's content commands."""

from __future__ import annotations

from argparse import ArgumentParser

import pytest
from django.core.management import load_command_class

COMMANDS = {
    "import_deck": "apps.authoring",
    "export_deck": "apps.authoring",
    "check_grading": "apps.quiz",
    "load_content": "apps.content",
    "rerender_content": "apps.content",
}


@pytest.mark.parametrize(("name", "app"), COMMANDS.items(), ids=COMMANDS)
def test_every_argument_of_the_command_is_described_in_its_help(name, app):
    parser = load_command_class(app, name).create_parser("manage.py", name)
    own = [action for action in parser._actions if action.dest in _own_options(app, name)]
    undescribed = [action.dest for action in own if not (action.help or "").strip()]
    assert not undescribed, f"{name} --help does not describe {undescribed}"


def _own_options(app: str, name: str) -> set[str]:
    """The arguments the command adds itself (Django's own, --verbosity and the like, are described already)."""
    parser = ArgumentParser()
    load_command_class(app, name).add_arguments(parser)
    return {action.dest for action in parser._actions if action.dest != "help"}


def test_import_deck_help_says_what_the_file_is():
    help_text = " ".join(load_command_class("apps.authoring", "import_deck").create_parser("manage.py", "import_deck")
                         .format_help().split())  # fmt: skip
    assert "file The deck file: JSON or CSV as export_deck or the admin's export writes it" in help_text
