from django.apps import AppConfig


class ContentConfig(AppConfig):
    name = "apps.content"
    label = "content"

    def ready(self) -> None:
        from . import checks  # noqa: F401 - registers the system checks
