"""House-rule machinery of the engine: action templates and the derived ``house`` flag."""

from __future__ import annotations

import json
import random

import pytest

from games.engine import EngineError
from games.engine.scenario import build_position
from games.engine.uno.actions import Action, Pick, covers, instances
from games.engine.uno.allwild.legal import legal_actions
from games.engine.uno.allwild.rules import apply
from games.engine.uno.state import State

pytestmark = pytest.mark.pure


def _state(options: dict[str, bool], hand: list[str]) -> State:
    state, _, _ = build_position(
        {
            "options": options,
            "position": {
                "seats": [{"hand": hand}, {"hand": ["skip", "skip"]}, {"hand": ["reverse"] * 3}],
                "discard_pile": ["draw2"],
            },
        }
    )
    return state


def test_a_template_stands_for_every_choice_of_its_cards_and_targets() -> None:
    template = Action("play_pair", 0, choose=Pick(2, ("a-1", "a-2", "a-3"), 2, (1, 2)))
    listed = list(instances(template))
    assert len(listed) == 3 * 4  # three pairs, two targets each from two seats
    assert all(covers(template, action) for action in listed)
    assert not covers(template, Action("play_pair", 0, cards=("a-1", "a-4"), targets=(1, 2)))
    assert not covers(template, Action("play_pair", 0, cards=("a-1", "a-1"), targets=(1, 2)))
    assert not covers(template, Action("play_pair", 0, cards=("a-1", "a-2")))
    assert not covers(template, Action("play_pair", 1, cards=("a-1", "a-2"), targets=(1, 2)))
    assert template.to_dict() == {
        "type": "play_pair",
        "seat": 0,
        "choose": {"count": 2, "from": ["a-1", "a-2", "a-3"], "targets": 2, "target_from": [1, 2]},
    }


def test_every_instance_of_a_listed_template_applies_and_the_template_itself_does_not() -> None:
    state = _state({"double_down": True}, ["targeted_draw2", "targeted_draw2", "wild", "wild"])
    templates = [a for a in legal_actions(state, 0) if a.choose is not None]
    assert sorted(t.choose.cards[0].split("-")[0] for t in templates if t.choose) == [
        "targeted_draw2",
        "wild",
    ]
    for template in templates:
        with pytest.raises(EngineError) as refused:
            apply(state, template, random.Random(0))
        assert refused.value.code == "wrong_card_count"
        for action in instances(template):
            apply(state, action, random.Random(0))


def test_an_action_with_choose_is_not_accepted_from_json() -> None:
    with pytest.raises(EngineError) as refused:
        Action.from_dict({"type": "mercy", "seat": 0, "choose": {"count": 5}})
    assert refused.value.code == "invalid_action"


@pytest.mark.parametrize(
    ("options", "house"),
    [
        ({}, False),
        ({"force_swap_protection": True, "speed_mode": True}, False),
        ({"stacking": True}, True),
        ({"blind_play": True}, True),
        ({"double_down": True}, True),
        ({"mercy": True}, True),
    ],
)
def test_the_house_flag_is_derived_from_the_options_and_never_stored(
    options: dict[str, bool], house: bool
) -> None:
    state = _state(options, ["wild", "wild"])
    assert state.house is house
    data = json.loads(json.dumps(state.to_dict()))
    assert "house" not in data
    assert State.from_dict(data).house is house
    assert state.copy().house is house
    after, _ = apply(state, legal_actions(state, 0)[0], random.Random(0))
    assert after.house is house
