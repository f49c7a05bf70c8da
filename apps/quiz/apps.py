from django.apps import AppConfig


class QuizConfig(AppConfig):
    name = "apps.quiz"
    label = "quiz"
