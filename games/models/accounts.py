"""What an account keeps besides Django's user: the choices a person makes once."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy


class AccountSettings(models.Model):
    """One account's own choices, made once and followed on every device it signs in
    on: the language its pages are in (empty: the footer's choice, the league's, or
    the browser's)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="account_settings"
    )
    language = models.CharField(max_length=10, blank=True, default="")

    class Meta:
        verbose_name_plural = gettext_lazy("account settings")

    def __str__(self) -> str:
        return f"{self.user}'s settings"
