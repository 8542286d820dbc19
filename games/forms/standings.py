"""The standings' date filter."""

from __future__ import annotations

import datetime

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy


class StandingsFilter(forms.Form):
    """The standings' date range, from the query string (?from=...&to=...; both
    optional, both inclusive)."""

    @classmethod
    def from_query(cls, query: QueryDict) -> StandingsFilter:
        """The filter a page or download's query string asks for: unbound (every
        date) when it names neither date, as a link without them does."""
        return cls(query if ("from" in query or "to" in query) else None)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # "from" is a Python keyword, hence fields added here rather than declared.
        widget = forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
        self.fields["from"] = forms.DateField(
            required=False, label=gettext_lazy("From"), widget=widget
        )
        self.fields["to"] = forms.DateField(required=False, label=gettext_lazy("To"), widget=widget)

    def clean(self) -> dict:
        cleaned = super().clean()
        start, end = cleaned.get("from"), cleaned.get("to")
        if start and end and start > end:
            raise forms.ValidationError(gettext_lazy("The start date is after the end date."))
        return cleaned

    @property
    def range(self) -> tuple[datetime.date | None, datetime.date | None]:
        if not self.is_bound or not self.is_valid():
            return None, None
        return self.cleaned_data.get("from"), self.cleaned_data.get("to")
