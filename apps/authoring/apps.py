from django.apps import AppConfig


class AuthoringConfig(AppConfig):
    """Instructor tools in the admin: card editing with preview, versions, import and export."""

    name = "apps.authoring"
    label = "authoring"
