"""Forms of the admin's pages, where the admin's own would take what the app
refuses."""

from __future__ import annotations

from django import forms

from games.rules import RulesError, get_ruleset


class RulesetAdminForm(forms.ModelForm):
    """A league's or session's preset and overrides must make a ruleset the rules
    service accepts: every page of a session replays it, so a typo here would break
    them all."""

    def clean(self) -> dict:
        cleaned = super().clean()
        if "preset" in cleaned and "overrides" in cleaned:
            try:
                get_ruleset(cleaned["preset"], cleaned["overrides"])
            except RulesError as error:
                self.add_error("overrides", error.message)
        return cleaned
