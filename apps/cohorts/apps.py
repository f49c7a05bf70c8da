from django.apps import AppConfig


class CohortsConfig(AppConfig):
    name = "apps.cohorts"
    label = "cohorts"

    def ready(self) -> None:
        from apps.quiz.signals import answer_recorded, answer_rescored

        from .aggregates import on_answer_recorded, on_answer_rescored

        answer_recorded.connect(on_answer_recorded, dispatch_uid="cohorts.answer_recorded")
        answer_rescored.connect(on_answer_rescored, dispatch_uid="cohorts.answer_rescored")
