"""Creating an account, the address a forgotten password's link goes to, the language
its pages are in, and the forms that choose a new password."""

from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.models import User
from django.utils.translation import gettext_lazy

HELP = gettext_lazy("Only to send you a link if you forget your password.")


class NewPasswordFirst:
    """A password form whose validators' errors ("too short", "too common") stand by
    the new password, where it was typed: Django puts them under its confirmation, the
    field that only says whether the two match. The summary at the form's top links
    them to the same field."""

    # Each confirmation's name (Django's default is password2) and its new password's.
    NEW_PASSWORD = {"password2": "password1", "new_password2": "new_password1"}

    def validate_password_for_user(
        self, user: User, password_field_name: str = "password2"
    ) -> None:
        field = self.NEW_PASSWORD.get(password_field_name, password_field_name)
        super().validate_password_for_user(user, field)


class ErrorsFirst:
    """A form sent back with errors has the focus on the first field marked wrong: a
    phone opens its keyboard there, where Django's autofocus (the username, the old
    password) would open it on a field that was right. A confirmation that did not
    match sends it to its new password: both come back empty, to be typed again. A
    field marked wrong is read with its error first, then its help, as the page shows
    them (partials/form_fields.html): Django reads the four password rules first."""

    def full_clean(self) -> None:
        super().full_clean()
        wrong = [name for name in self.fields if name in self.errors]
        if wrong:
            for field in self.fields.values():
                field.widget.attrs.pop("autofocus", None)
            first = NewPasswordFirst.NEW_PASSWORD.get(wrong[0], wrong[0])
            self.fields[first].widget.attrs["autofocus"] = True
        for name in wrong:
            said = self[name]
            if not said.auto_id or said.is_hidden:
                continue  # no ids to name, as Django's own
            helped = [f"{said.auto_id}_helptext"] if said.help_text else []
            said.field.widget.attrs["aria-describedby"] = " ".join(
                [f"{said.auto_id}_error", *helped]
            )


class SignupForm(ErrorsFirst, NewPasswordFirst, auth_forms.UserCreationForm):
    """Django's sign-up form; a club makes its own accounts. The e-mail address is
    optional: it is only where a forgotten password's reset link goes."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail (optional)"),
        required=False,
        help_text=HELP,
    )

    class Meta(auth_forms.UserCreationForm.Meta):
        fields = ("username", "email")


class EmailForm(forms.ModelForm):
    """The account page's e-mail address: added later by whoever skipped it at sign-up,
    changed, or cleared."""

    email = forms.EmailField(label=gettext_lazy("E-mail address"), required=False, help_text=HELP)

    class Meta:
        model = User
        fields = ("email",)


class LanguageForm(forms.Form):
    """The language chosen in the footer (one of settings.LANGUAGES) or on the account
    page, which may also choose none: the league's language, else the browser's."""

    language = forms.ChoiceField(label=gettext_lazy("Language"), required=False)

    def __init__(self, *args, none_label: str = "", **kwargs) -> None:
        super().__init__(*args, **kwargs)
        none = [("", none_label)] if none_label else []
        self.fields["language"].choices = [*none, *settings.LANGUAGES]


class SetPasswordForm(ErrorsFirst, NewPasswordFirst, auth_forms.SetPasswordForm):
    """A new password chosen through a reset link."""


class PasswordChangeForm(ErrorsFirst, NewPasswordFirst, auth_forms.PasswordChangeForm):
    """A new password chosen while signed in, the old one given first."""


class PasswordResetForm(auth_forms.PasswordResetForm):
    """A forgotten password: the e-mail address its link goes to, named as on the
    account page, with a phone's e-mail keyboard."""

    email = forms.EmailField(
        label=gettext_lazy("E-mail address"),
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email", "inputmode": "email"}),
    )
