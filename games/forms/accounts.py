"""Creating an account."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm


class SignupForm(UserCreationForm):
    """Django's sign-up form; a club makes its own accounts. The e-mail address is
    optional: it is only where a forgotten password's reset link goes."""

    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        help_text="Only to send you a link if you forget your password.",
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")
