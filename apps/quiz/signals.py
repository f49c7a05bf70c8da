"""Signals for apps that keep their own totals of answers (cohorts), so quiz need not know them.

Both are sent inside the answer's transaction, under apps.common.db.student_lock, after the
student's own running totals moved; receivers need not take the lock again.
"""

from django.dispatch import Signal

# answer: the new Answer; first_on_card: the student's first answer to that card
answer_recorded = Signal()
# answer: the Answer after the override; score_delta, overrides_delta; wrong_before: its final verdict was not correct
answer_rescored = Signal()
