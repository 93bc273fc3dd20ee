"""The classic game (1995, Rio Grande / Hans im Glück).

round.py     its round, as data: the stages of engine/stages/, in order
its cards    engine/effects/ (the classic block of engine/effects/__init__.py)
its data     engine/data/board_classic.json, action_cards_classic.json
"""
