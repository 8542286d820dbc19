"""The league import's upload."""

from __future__ import annotations

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from games.forms.fields import NameField
from games.models import League
from games.uploads import MAX_UPLOAD_BYTES, MAX_UPLOAD_MB

# A league file larger than this is refused before it is read (games/uploads.py
# refuses the request from its Content-Length): a club's years of evenings fit in a
# few megabytes.
MAX_IMPORT_BYTES = MAX_UPLOAD_BYTES
TOO_LARGE = format_lazy(
    gettext_lazy(
        "This file is larger than {size} MB, the most an upload may be: nothing was read or "
        "saved. An administrator can import it with manage.py import_league."
    ),
    size=MAX_UPLOAD_MB,
)


class LeagueImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("League file"),
        help_text=gettext_lazy(
            "A .json file exported from a league's standings page or by manage.py export_league."
        ),
        widget=forms.FileInput(attrs={"accept": ".json,application/json", "data-league-file": ""}),
    )

    # As the league form takes a name. Empty: the file's (the page fills it in from the
    # file chosen, to keep or change).
    name = NameField(
        max_length=League._meta.get_field("name").max_length,
        required=False,
        label=gettext_lazy("League name"),
        help_text=gettext_lazy("Empty: the name in the file."),
        widget=forms.TextInput(attrs={"data-league-name": "", "autocapitalize": "words"}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(TOO_LARGE)
        return upload
