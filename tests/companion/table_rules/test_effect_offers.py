"""companion/table_rules/effect_offers.py: the card editor's effects and their parameter fields. No Kivy."""

from companion.table_rules.effect_offers import effect_offers, param_fields


def test_param_fields_step_between_left_out_and_their_range():
    count = next(f for f in param_fields("decay") if f.name == "count")
    assert not count.required and count.start() is None and count.left_out() == "all of them"
    assert count.step(None, +1) == 1 and count.step(1, -1) is None and count.step(30, +1) == 30
    militia = param_fields("militia")[0]
    assert militia.start() == 1 and militia.step(1, -1) == 1
    assert param_fields("choice")[0].start() == ["move_all_own", "place_extra"]
    offers = {o.name: o for o in effect_offers("2023")}
    assert "veto" not in offers and "veto_2023" in offers  # the classic Veto is not a 2023 effect
    assert offers["militia"].rule_text.startswith("(2023)")
