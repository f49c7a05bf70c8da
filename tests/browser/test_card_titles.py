"""In a real Chromium: a card's question as a title (the search results, a quiz's results) at a phone's width and on
a desktop, where two questions that differ only at their end must still be told apart."""

from __future__ import annotations

import pytest

from apps.quiz import services
from tests.conftest import make_user
from tests.factories import make_card, make_deck

pytestmark = pytest.mark.django_db(transaction=True)

STEM = "When using Kubernetes for ML workload orchestration, what resource type is typically used to "
ENDS = ("run a one-time batch training job?", "keep a model server running behind a load balancer?")
# Each title's text as far as it shows: the characters not cut off by its clamp.
SHOWN = """() => [...document.querySelectorAll('.card-title')].map(el => {
  const bottom = el.getBoundingClientRect().bottom + 1, range = document.createRange();
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  let shown = '';
  while (walker.nextNode()) {
    for (let i = 0; i < walker.currentNode.length; i++) {
      range.setStart(walker.currentNode, i); range.setEnd(walker.currentNode, i + 1);
      const rect = range.getClientRects()[0];
      if (rect && rect.bottom <= bottom) shown += walker.currentNode.data[i];
    }
  }
  return shown.replace(/\\s+/g, ' ').trim();
})"""


@pytest.mark.parametrize("width", [375, 1280])
def test_two_questions_differing_at_their_end_are_told_apart(browser, live_server, sign_in, width):
    """At 375 px the two-line clamp showed both as "When using Kubernetes for ML workload orchestration, what
    resource…": the results said which was missed, but not which question that was."""
    deck = make_deck(title="Orchestration")
    for end in ENDS:
        make_card(deck=deck, kind="syllabus", question=STEM + end, answer="A Job.", short_answer="")
    alice = make_user("alice")
    quiz = services.session_start(user=alice, deck=deck, size=2, mode="recall", order="new")
    services.session_finish(user=alice, session_id=quiz.pk)
    page = browser.new_context(viewport={"width": width, "height": 800}).new_page()
    sign_in(page, "alice", quiz.get_absolute_url())
    for url in (quiz.get_absolute_url(), "/search/?q=kubernetes"):
        page.goto(f"{live_server.url}{url}")
        shown = page.evaluate(SHOWN)
        assert sorted(shown) == sorted(STEM + end for end in ENDS), (url, shown)
