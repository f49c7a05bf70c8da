from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ImportHold(models.Model):
    """A deck file an instructor checked (dry run), waiting for their confirmation.

    In the database rather than the cache: a busy cache evicts entries, and the confirmation
    must import exactly what was checked or say plainly that it is gone.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=64, help_text="sha256 of the file name and content.")
    name = models.CharField(max_length=255)
    content = models.BinaryField(help_text="The file, zlib-compressed.")
    deck_state = models.CharField(
        max_length=64, blank=True, help_text="The deck as the dry run found it (selectors.deck_fingerprint)."
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="import_hold_unique_key")]

    def __str__(self) -> str:
        return f"{self.name} ({self.user_id})"
