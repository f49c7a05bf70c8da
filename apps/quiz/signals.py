"""Signals for apps that keep their own totals of answers (cohorts), so quiz need not know them.

Each is sent inside the answer's transaction, under apps.common.db.student_lock, after the
student's own running totals moved; receivers need not take the lock again.
"""

from django.dispatch import Signal

# answer: the new Answer; first_on_card: the student's first answer to that card
answer_recorded = Signal()
# card_id; rescored: a list of aggregates.Rescored, answers to that card whose final score or overrides changed
answers_rescored = Signal()
