"""Creating an account, and the address a forgotten password's link goes to."""

from __future__ import annotations

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User

HELP = "Only to send you a link if you forget your password."


class SignupForm(UserCreationForm):
    """Django's sign-up form; a club makes its own accounts. The e-mail address is
    optional: it is only where a forgotten password's reset link goes."""

    email = forms.EmailField(
        label="E-mail (optional)",
        required=False,
        help_text=HELP,
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email")


class EmailForm(forms.ModelForm):
    """The account page's e-mail address: added later by whoever skipped it at sign-up,
    changed, or cleared."""

    email = forms.EmailField(label="E-mail address", required=False, help_text=HELP)

    class Meta:
        model = User
        fields = ("email",)
