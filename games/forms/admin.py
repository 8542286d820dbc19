"""Forms of the admin's pages, where the admin's own would take what the app
refuses: a ruleset the rules service does not accept, a round's hands it cannot
score; and the widgets the admin's pages name every box with (axe)."""

from __future__ import annotations

from django import forms
from django.contrib.admin.widgets import AdminSplitDateTime, AutocompleteSelect
from django.utils.translation import gettext, gettext_lazy

from games.models import Round, validate_figures, validate_groups
from games.rules import HandFigures, RulesError, get_ruleset
from games.services.round_checks import RoundCheck, problems
from games.services.round_rescores import RecordedHand, check_recorded, locked_version


class LabelledSplitDateTime(AdminSplitDateTime):
    """Django's date and time boxes, each with a name of its own ("Closed at, date"):
    the admin puts the field's name in the legend around the pair and "Date:" and
    "Time:" before the boxes as bare text, which labels neither box (axe's rule
    ``label``), and a page may hold several such pairs."""

    def __init__(self, field_name: str, attrs: dict | None = None) -> None:
        super().__init__(attrs)
        self.field_name = str(field_name)

    def get_context(self, name, value, attrs) -> dict:
        context = super().get_context(name, value, attrs)
        said = (context["date_label"], context["time_label"])
        for box, part in zip(context["widget"]["subwidgets"], said, strict=True):
            part = str(part).rstrip(": \u00a0").lower()
            # Translators: names a date or time box of the admin ("Closed at, date").
            box["attrs"]["aria-label"] = gettext("{field}, {part}").format(
                field=self.field_name.capitalize(), part=part
            )
        return context


class NamedAutocomplete(AutocompleteSelect):
    """Django's search-as-you-type select, its box named while nothing is chosen:
    select2 names the box by what it shows, and Django leaves that empty (axe,
    ``aria-input-field-name``)."""

    def build_attrs(self, base_attrs, extra_attrs=None) -> dict:
        attrs = super().build_attrs(base_attrs, extra_attrs)
        attrs["data-placeholder"] = gettext("Choose the {field}").format(
            field=self.field.verbose_name
        )
        return attrs


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


class CheckedHandsFormSet(forms.BaseInlineFormSet):
    """A round's hands as its admin page edits them, checked with its cut joker as the
    round page checks a save: a round the rules refuse is not saved, and the page says
    why. The figures are the rules service's (``checked``, for ``rescore_round``)."""

    def clean(self) -> None:
        super().clean()
        if any(self.errors):
            return
        kept = [form for form in self.forms if form.cleaned_data]
        kept = [form for form in kept if not self._should_delete_form(form)]
        # Hands are saved one by one: a hand given the player of another hand still
        # saved as theirs would meet it in the database (one hand a player a round).
        held = {form.instance.player_id for form in kept if form.instance.pk}
        if any(
            form.instance.pk
            and "player" in form.changed_data
            and form.cleaned_data["player"].pk in held
            for form in kept
        ):
            raise forms.ValidationError(
                gettext(
                    "A hand's player can change only to a player with no hand in the round: "
                    "change the cards and outcomes instead."
                )
            )
        hands = {form.cleaned_data["player"].pk: recorded_hand(form.cleaned_data) for form in kept}
        self.checked = _valid(check_recorded(self.instance, self.instance.cut_joker, hands))


CHANGED_MEANWHILE = gettext_lazy(
    "This round was saved by someone else since this page was opened: reload the page "
    "to see it as it is now, and make your change again. Nothing was saved."
)


def opened_version() -> forms.IntegerField:
    """The version of the round as the page showed it: a save over a change made since
    (a phone, another admin) is refused, as the round page refuses one."""
    return forms.IntegerField(widget=forms.HiddenInput, required=False)


def _refuse_if_changed(cleaned: dict, played: Round) -> None:
    # Locked first in every case: the hands are then checked as they stay until saved.
    now = locked_version(played)
    opened = cleaned.get("opened_version")
    if opened is not None and now != opened:
        raise forms.ValidationError(CHANGED_MEANWHILE)


class RoundAdminForm(forms.ModelForm):
    """A round's own fields on its admin page, saved only over the version shown."""

    opened_version = opened_version()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["opened_version"].initial = self.instance.version

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.instance.pk:
            _refuse_if_changed(cleaned, self.instance)
        return cleaned


class HandAdminForm(forms.ModelForm):
    """One hand, edited on its own admin page: checked with the other hands of its
    round as they are saved, as the round page checks a save, and saved only over the
    round's version shown."""

    opened_version = opened_version()

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.round_id:
            self.fields["opened_version"].initial = self.instance.round.version

    def clean(self) -> dict:
        cleaned = super().clean()
        played = self.instance.round
        _refuse_if_changed(cleaned, played)
        if self.errors or "player" not in cleaned:
            return cleaned
        try:  # the model checks the groups only after this (Model.full_clean)
            validate_groups(cleaned.get("groups"))
        except forms.ValidationError as error:
            self.add_error("groups", error)
            return cleaned
        try:
            validate_figures(cleaned.get("figures") or {})
        except forms.ValidationError as error:
            self.add_error("figures", error)
            return cleaned
        hands = {
            entry.player_id: RecordedHand(
                entry.outcome, entry.groups, entry.on_deal, entry.hand_figures
            )
            for entry in played.entries.exclude(pk=self.instance.pk)
        }
        hands[cleaned["player"].pk] = recorded_hand(cleaned)
        self.checked = _valid(check_recorded(played, played.cut_joker, hands))
        return cleaned


def recorded_hand(cleaned: dict) -> RecordedHand:
    figures = HandFigures(**cleaned.get("figures") or {}) if cleaned.get("counted") else None
    return RecordedHand(
        cleaned["outcome"], cleaned.get("groups") or [], bool(cleaned.get("on_deal")), figures
    )


def _valid(check: RoundCheck) -> RoundCheck:
    """``check``, which the admin's save scores the round with (``rescore_round``), or
    the form's errors: what stops it, in the rules' words."""
    if not check.valid:
        raise forms.ValidationError(problems(check))
    return check
