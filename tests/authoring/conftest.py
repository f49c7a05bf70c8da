"""Fixtures of the authoring tests: `deck`, an exportable deck with every part a file holds, for the
export_deck / import_deck tests (test_transfer_*.py). The test_spreadsheets_*.py files each have a `deck` of their own.
"""

import pytest

from tests.factories import make_exportable_deck


@pytest.fixture
def deck():
    return make_exportable_deck(description="About *serving*.", archived_question='Comma, "quotes"\nand newline?')
