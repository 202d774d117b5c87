"""Forms for the tournament pages: registering a pair, importing a CSV, withdrawing a pair,
choosing the format, recording a walkover and setting a result by hand.

Each form only shapes input; ``save(by)`` calls the service in ``tournaments.services`` (or
``tournaments.csv_import``), and a refusal from the service becomes an error on the field it
names, so the page shows it next to that field.
"""
from __future__ import annotations

from django import forms
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from . import services
from .csv_import import ImportReport, Mode, import_pairs
from .models import Pair, Stage, Tournament
from draw.pairing.standings import Tiebreak

PLAYER_PARTS = ("name", "nickname", "club", "contact")

#: Each tiebreak's name and a short explanation, for the organizer choosing their order.
TIEBREAK_CHOICES = {
    "matches_won": (_("Matches won"), _("More matches won ranks higher (byes count as wins).")),
    "match_points": (_("Match points"), _("1 point per win, ½ per draw.")),
    "games_won": (_("Games won"), _("The games won in all matches.")),
    "point_difference": (_("Point difference"), _("Tentos scored minus tentos conceded.")),
    "points_scored": (_("Tentos scored"), _("All the tentos the pair scored.")),
    "head_to_head": (_("Head-to-head"), _("The result between the tied pairs themselves.")),
    "buchholz": (_("Buchholz"), _("Swiss only: the sum of the opponents' match points.")),
    "median_buchholz": (_("Median Buchholz"), _("Swiss only: Buchholz without the best and the worst opponent.")),
    "sonneborn_berger": (_("Sonneborn-Berger"), _("The match points of the opponents the pair beat.")),
}


class OrderedTiebreaks(forms.CheckboxSelectMultiple):
    """The tiebreaks as an ordered list: a box to use each one, its position (a number, so it works
    without JavaScript) and up/down buttons (a few lines of JavaScript in the template)."""

    template_name = "tournaments/widgets/ordered_tiebreaks.html"

    def get_context(self, name, value, attrs):
        context = super().get_context(name, value, attrs)
        chosen = [str(v) for v in (value or [])]
        keys = chosen + [key for key, _label in self.choices if key not in chosen]
        context["items"] = [{"key": key, "name": TIEBREAK_CHOICES.get(key, (key, ""))[0],
                             "help": TIEBREAK_CHOICES.get(key, (key, ""))[1], "checked": key in chosen,
                             "position": index + 1, "id": f"{attrs.get('id', name)}_{index}"}
                            for index, key in enumerate(keys)]
        return context

    def _render(self, template_name, context, renderer=None):
        # The site's template engine (the default form renderer does not read templates/).
        return mark_safe(render_to_string(template_name, context))

    def value_from_datadict(self, data, files, name):
        """The ticked tiebreaks, in the order of their position numbers (ties keep the page order)."""
        ticked = super().value_from_datadict(data, files, name) or []
        keys = [key for key, _label in self.choices]

        def position(key):
            text = str(data.get(f"{name}_position_{key}", "")).strip()
            return (int(text) if text.isdigit() else 10_000, ticked.index(key))

        return sorted((key for key in ticked if key in keys), key=position)
class RoundFormatsField(forms.CharField):
    """The match format per round of a stage as the organizer types it: ``round=games`` separated by
    commas, e.g. ``1=1, 3=3, -1=5`` (``-1`` the last round, ``-2`` the one before); a dict out
    (``Stage.round_best_of``, checked again by the service)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("max_length", 300)
        super().__init__(**kwargs)

    def prepare_value(self, value):
        if isinstance(value, dict):
            return ", ".join(f"{k}={v}" for k, v in sorted(value.items(), key=lambda kv: (int(kv[0]) < 0, abs(int(kv[0])))))
        return value

    def to_python(self, value) -> dict:
        text = super().to_python(value) or ""
        out = {}
        for part in text.replace(";", ",").split(","):
            if not part.strip():
                continue
            key, sep, games = part.replace(":", "=").partition("=")
            try:
                number, best_of = int(key.strip()), int(games.strip())
            except ValueError:
                raise forms.ValidationError(_("Write round=games, e.g. 1=3, -1=5 (%(part)s?).")
                                            % {"part": part.strip()}) from None
            if not sep or number == 0 or best_of not in (1, 3, 5):
                raise forms.ValidationError(_("Write round=games, e.g. 1=3, -1=5 (%(part)s?).")
                                            % {"part": part.strip()})
            out[str(number)] = best_of
        return out


PLAYER_LABELS = {"name": _("name"), "nickname": _("nickname"), "club": _("club"), "contact": _("contact")}


class ServiceForm(forms.Form):
    """A form whose ``save`` calls a service; a :class:`services.TournamentError` lands on its field."""

    #: service field (or its first part, before a dot) -> form field
    field_map: dict[str, str] = {}

    #: the prefix of the fields' ids: several forms share the dashboard, each with its own ids
    id_prefix = "id"

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("label_suffix", "")  # labels in sentence case, without a colon
        kwargs.setdefault("auto_id", f"{self.id_prefix}_%s")
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            field.label = capfirst(field.label)

    def service_error(self, error: services.TournamentError) -> None:
        name = self.field_map.get(error.field) or self.field_map.get(error.field.split(".")[0]) or error.field
        self.add_error(name if name in self.fields else None, error.message)


class PairRegistrationForm(ServiceForm):
    """Register a pair: its name, the two players (name, nickname, club, contact), an optional
    substitute, and optionally a rating and the organizer's seed.

    ``PairRegistrationForm(data, tournament=t)``; ``form.save(by=request.user)`` returns the
    :class:`Pair`, or ``None`` with the errors on the form."""

    id_prefix = "pair"
    name = forms.CharField(label=_("pair name"), max_length=120)
    rating = forms.IntegerField(label=_("rating"), required=False, min_value=0, max_value=1_000_000)
    seed = forms.IntegerField(label=_("seed"), required=False, min_value=1, max_value=100_000)
    avoid_tags = forms.CharField(label=_("avoid meeting (club, family)"), required=False, max_length=200,
                                 help_text=_("Comma separated: pairs sharing one are kept apart in the group draw and "
                                             "the Swiss rounds when possible."))
    status = forms.ChoiceField(label=_("registration"), required=False, initial=Pair.Status.CONFIRMED,
                               choices=[(Pair.Status.CONFIRMED, Pair.Status.CONFIRMED.label),
                                        (Pair.Status.PENDING, Pair.Status.PENDING.label)])

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        for prefix, label, required in (("first", _("first player"), True), ("second", _("second player"), True),
                                        ("substitute", _("substitute"), False)):
            for part in PLAYER_PARTS:
                limit = services.PLAYER_TEXT[part]
                self.fields[f"{prefix}_{part}"] = forms.CharField(
                    label=capfirst(f"{PLAYER_LABELS[part]} ({label})"), max_length=limit,
                    required=required and part == "name",
                )
        for prefix in ("first", "second", "substitute"):  # "the same person?" answered
            self.fields[f"{prefix}_existing"] = forms.IntegerField(required=False, min_value=1,
                                                                   widget=forms.HiddenInput)
        self.fields["different_people"] = forms.BooleanField(
            label=_("They are different people with the same name: register a new player"), required=False)
        self.namesakes: dict[str, list] = {}
        self.field_map = {
            "name": "name", "rating": "rating", "seed": "seed", "status": "status", "avoid_tags": "avoid_tags",
            "first_player": "first_name", "second_player": "second_name", "substitute": "substitute_name",
            **{f"{key}.{part}": f"{prefix}_{part}" for key, prefix in
               (("first_player", "first"), ("second_player", "second"), ("substitute", "substitute"))
               for part in PLAYER_PARTS},
        }

    def _player(self, prefix: str) -> dict | int | None:
        existing = self.cleaned_data.get(f"{prefix}_existing")
        if existing:  # "yes, the same person": the registered player, by id
            return existing
        data = {part: self.cleaned_data.get(f"{prefix}_{part}") or "" for part in PLAYER_PARTS}
        return data if any(data.values()) else None

    def registration(self) -> dict:
        return {
            "name": self.cleaned_data["name"], "first_player": self._player("first"),
            "second_player": self._player("second"), "substitute": self._player("substitute"),
            "rating": self.cleaned_data.get("rating"), "seed": self.cleaned_data.get("seed"),
            "avoid_tags": self.cleaned_data.get("avoid_tags") or "",
            "status": self.cleaned_data.get("status") or Pair.Status.CONFIRMED,
            "different_people": bool(self.cleaned_data.get("different_people")),
        }

    def save(self, by) -> Pair | None:
        if not self.is_valid():
            return None
        try:
            return services.register_pair(self.tournament, by, **self.registration())
        except services.TournamentError as error:
            self.service_error(error)
            candidates = getattr(error, "candidates", None)
            if candidates:  # the page offers each registered player, or "different people"
                prefix = {"first_player": "first", "second_player": "second",
                          "substitute": "substitute"}[error.field.split(".")[0]]
                self.namesakes = {"prefix": prefix, "field": f"{prefix}_existing",
                                  "candidates": [{"player": p, "pair": pair} for p, pair in candidates[:5]]}
            return None


class CsvImportForm(ServiceForm):
    """Upload a CSV of pairs (see ``tournaments.csv_import``). ``save(by)`` returns the
    :class:`ImportReport` (its ``errors`` list the bad rows), or ``None`` if the form is invalid."""

    id_prefix = "csv"
    file = forms.FileField(label=_("CSV file"))
    mode = forms.ChoiceField(
        label=_("bad rows"), initial=Mode.ALL_OR_NOTHING.value,
        choices=[(Mode.ALL_OR_NOTHING.value, _("Import nothing if a row is bad")),
                 (Mode.VALID_ROWS.value, _("Import the good rows, report the bad ones"))],
    )

    namesakes = forms.ChoiceField(
        label=_("players with a name already registered"), initial="ask", required=False,
        choices=[("ask", _("Report the row, so that I choose")),
                 ("reuse", _("The same person: use my registered player")),
                 ("different", _("Different people: register new players"))])

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def save(self, by) -> ImportReport | None:
        if not self.is_valid():
            return None
        try:
            return import_pairs(self.tournament, self.cleaned_data["file"], by, mode=self.cleaned_data["mode"],
                                namesakes=self.cleaned_data.get("namesakes") or "ask")
        except services.TournamentError as error:
            self.service_error(error)
            return None


class WithdrawalForm(ServiceForm):
    """Withdraw a pair (its remaining matches become walkovers). ``save(by)`` returns the walkovers."""

    reason = forms.CharField(label=_("reason"), max_length=300, widget=forms.Textarea(attrs={"rows": 2}))

    def __init__(self, *args, pair: Pair, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pair = pair

    def save(self, by):
        if not self.is_valid():
            return None
        try:
            return services.withdraw_pair(self.pair, by, self.cleaned_data["reason"])
        except services.TournamentError as error:
            self.service_error(error)
            return None


class StageForm(ServiceForm):
    """The tournament's format. ``tiebreaks`` keeps the order in which the values were posted."""

    id_prefix = "stage"
    format = forms.ChoiceField(label=_("format"), choices=Stage.Format.choices)
    seeding = forms.ChoiceField(label=_("seeding"), choices=Stage.Seeding.choices, initial=Stage.Seeding.ORDER)
    third_place = forms.BooleanField(label=_("third-place match"), required=False)
    classification = forms.BooleanField(label=_("places 5 to 8 played (knockout of 8 or more)"), required=False)
    grand_final_reset = forms.BooleanField(label=_("grand-final reset"), required=False, initial=True)
    group_count = forms.IntegerField(label=_("groups"), min_value=1, max_value=64, initial=1)
    qualifiers_per_group = forms.IntegerField(label=_("qualifiers per group"), min_value=1, max_value=64,
                                              initial=2)
    swiss_rounds = forms.IntegerField(label=_("Swiss rounds"), min_value=1, max_value=64, required=False)
    tiebreaks = forms.MultipleChoiceField(label=_("Tiebreaks, in order"), widget=OrderedTiebreaks,
                                          choices=[(t.value, TIEBREAK_CHOICES[t.value][0]) for t in Tiebreak])
    walkover_scores = forms.BooleanField(label=_("walkovers count games and points"), required=False)
    swiss_order = forms.ChoiceField(label=_("Swiss pairing in a score group"), choices=Stage.SwissOrder.choices,
                                    initial=Stage.SwissOrder.FOLD, required=False)
    legs = forms.TypedChoiceField(label=_("legs"), coerce=int, initial=1, required=False,
                                  choices=[(1, _("Single round robin")), (2, _("Double round robin"))])
    best_of = forms.TypedChoiceField(label=_("match format"), coerce=int, empty_value=None, required=False,
                                     choices=[("", _("The tournament's"))] + list(Tournament.BestOf.choices))
    round_best_of = RoundFormatsField(
        label=_("match format per round"),
        help_text=_("round=games, e.g. 1=1, -2=3, -1=5 (-1 the last round, -2 the one before); empty: the stage's"))
    third_place_best_of = forms.TypedChoiceField(label=_("third-place match format"), coerce=int, empty_value=None,
                                                 required=False,
                                                 choices=[("", _("The stage's"))] + list(Tournament.BestOf.choices))
    avoid_rounds = forms.IntegerField(
        label=_("keep club mates apart until round"), min_value=1, max_value=64, required=False,
        help_text=_("Pairs sharing an avoid tag (club, family) are kept apart when possible; empty: every round."))

    def __init__(self, *args, tournament: Tournament, **kwargs) -> None:
        stage = Stage.objects.filter(tournament=tournament, position=1).first()
        if stage is not None and "initial" not in kwargs:
            kwargs["initial"] = {name: getattr(stage, name) for name in services.STAGE_FIELDS}
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def save(self, by) -> Stage | None:
        if not self.is_valid():
            return None
        try:
            data = {name: self.cleaned_data[name] for name in services.STAGE_FIELDS if name in self.fields}
            data["swiss_order"] = data["swiss_order"] or Stage.SwissOrder.FOLD
            data["legs"] = data["legs"] or 1
            return services.configure_stage(self.tournament, by, **data)
        except services.TournamentError as error:
            self.service_error(error)
            return None


class WalkoverForm(ServiceForm):
    """W.O.: which pair of the match was absent."""

    absent = forms.TypedChoiceField(label=_("absent pair"), coerce=int)
    reason = forms.CharField(label=_("reason"), max_length=300, required=False)

    def __init__(self, *args, match, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.fields["absent"].choices = [(match.pair_a_id, str(match.pair_a)), (match.pair_b_id, str(match.pair_b))]

    def save(self, by):
        if not self.is_valid():
            return None
        try:
            return services.record_walkover(self.match, self.cleaned_data["absent"], by,
                                            reason=self.cleaned_data["reason"])
        except services.TournamentError as error:
            self.service_error(error)
            return None


class ManualResultForm(ServiceForm):
    """Override: the organizer sets a match's result, with a reason."""

    winner = forms.TypedChoiceField(label=_("winner"), coerce=int)
    games_a = forms.IntegerField(label=_("games of pair A"), min_value=0, max_value=5, required=False)
    games_b = forms.IntegerField(label=_("games of pair B"), min_value=0, max_value=5, required=False)
    points_a = forms.IntegerField(label=_("points of pair A"), min_value=0, max_value=115, required=False)
    points_b = forms.IntegerField(label=_("points of pair B"), min_value=0, max_value=115, required=False)
    reason = forms.CharField(label=_("reason"), max_length=300)
    # the dashboard's quick result: the loser's tentos, whichever pair lost
    loser_points = forms.IntegerField(label=_("tentos of the loser"), min_value=0, max_value=11, required=False)
    field_map = {"games": "games_a", "points": "points_a"}

    def __init__(self, *args, match, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.match = match
        self.fields["winner"].choices = [(match.pair_a_id, str(match.pair_a)), (match.pair_b_id, str(match.pair_b))]

    def clean(self):
        """What the match's format implies: no games given, the winner wins the games the format
        needs and the other none; the loser's tentos given and the winner's not, with the loser winning no
        game, the winner has 12 a game (art. 18). A best of 3 won 2-1 needs both tentos: never guessed."""
        data = super().clean()
        winner = data.get("winner")
        if winner is None:
            return data
        a_won = winner == self.match.pair_a_id
        if data.get("games_a") is None and data.get("games_b") is None:
            need = self.match.best_of // 2 + 1
            data["games_a"], data["games_b"] = (need, 0) if a_won else (0, need)
        elif data.get("games_a") is None or data.get("games_b") is None:
            self.add_error("games_a" if data.get("games_a") is None else "games_b",
                           _("Give the games of both pairs, or neither."))
            return data
        (won, lost), (won_key, lost_key) = ((data["games_a"], data["games_b"]), ("points_a", "points_b")) if a_won \
            else ((data["games_b"], data["games_a"]), ("points_b", "points_a"))
        if data.get("loser_points") is not None and data.get(lost_key) is None:
            data[lost_key] = data["loser_points"]
        if data.get(won_key) is None and data.get(lost_key) is not None and lost == 0:
            data[won_key] = 12 * won
        return data

    def save(self, by):
        if not self.is_valid():
            return None
        data = self.cleaned_data
        try:
            return services.set_result(self.match, by, winner=data["winner"], games=[data["games_a"], data["games_b"]],
                                       points=_points(data), reason=data["reason"])
        except services.TournamentError as error:
            self.service_error(error)
            return None


def _points(data: dict) -> list[int] | None:
    """The tentos typed in, or None when both are left empty (then not checked: see ``set_result``)."""
    if data.get("points_a") is None and data.get("points_b") is None:
        return None
    return [data.get("points_a") or 0, data.get("points_b") or 0]
