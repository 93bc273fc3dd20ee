"""Hans im Glück's 2023 edition: the classic round, with its modules as parts (engine/hooks.py).

round.py        its round, as data: the classic stages and its parts' own
dummy.py        the 2-player game's third colour, played by the rules (its own stages)
new_regency.py  the ten ♠ cards as a fifth stack
old_hands.py    the classic cards added to or removed from the stacks (data checks only)
power_shift.py  Modifier cards on the Power cards (its own stages)
its cards       engine/effects/ (the 2023 block of engine/effects/__init__.py)
its data        engine/data/board_2023.json, action_cards_2023.json, standins_2023.json,
                power_shift_stand_in.json
"""
