"""Rule sets are cached by their canonical form: a report that spells the rule set the previous one
spelled gets the same object in one comparison, and a spelling that only looks equal (``1`` for ``true``,
``3.0`` for ``3``) is still validated and refused."""
from __future__ import annotations

import json

import pytest

from referee.engine.errors import ReportError
from referee.engine.rules import DEFAULT, PRESETS, rule_set_from


def spelled(rules):
    return json.loads(json.dumps(rules.as_dict()))


def test_the_same_spelling_gives_the_canonical_rule_set():
    assert rule_set_from(spelled(DEFAULT)) is DEFAULT
    assert rule_set_from(spelled(DEFAULT)) is DEFAULT
    jtb = spelled(PRESETS["jtb"])
    assert rule_set_from(jtb) is PRESETS["jtb"] and rule_set_from(spelled(DEFAULT)) is DEFAULT
    reordered = {"options": dict(reversed(list(spelled(DEFAULT)["options"].items()))),
                 "preset": "regulamento-tecnico"}
    assert rule_set_from(reordered) is DEFAULT


@pytest.mark.parametrize(("name", "value"), [("score_cap", 1), ("iron_hand_value", 3.0), ("blind_iron_hand", 0)])
def test_a_value_equal_but_of_another_type_is_refused_after_the_right_one(name, value):
    assert rule_set_from(spelled(DEFAULT)) is DEFAULT  # the previous spelling, remembered
    wrong = spelled(DEFAULT)
    wrong["options"][name] = value
    with pytest.raises(ReportError) as refused:
        rule_set_from(wrong)
    assert refused.value.code == "rules.option_value" and refused.value.field == f"rules.options.{name}"
