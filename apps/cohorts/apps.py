from django.apps import AppConfig


class CohortsConfig(AppConfig):
    name = "apps.cohorts"
    label = "cohorts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import pre_delete

        from apps.quiz.signals import answer_recorded, answers_rescored

        from .aggregates import on_answer_recorded, on_answers_rescored
        from .services import on_user_deleting

        answer_recorded.connect(on_answer_recorded, dispatch_uid="cohorts.answer_recorded")
        answers_rescored.connect(on_answers_rescored, dispatch_uid="cohorts.answers_rescored")
        # Deleting an account (the admin) must take its answers out of the cohorts' totals first.
        pre_delete.connect(on_user_deleting, sender=get_user_model(), dispatch_uid="cohorts.user_deleting")
