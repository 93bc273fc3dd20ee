"""King and Intrigue, the expansion played on the classic board (modules: players-edition,
special-cards).

    round.py     its setup and round: Power cards carry the special actions, Action cards
                 dealt by rank; its stages, its hooks (engine/hooks.py)
    general_scoring.py  its general scoring: the 2x markers and the cards' tokens
    cards.py     its card set: the Power cards, their effects and parameters, the stand-ins
    its cards    engine/effects/ (the King and Intrigue block of engine/effects/__init__.py)
    its data     engine/data/cards_king_intrigue.json, standins_king_intrigue.json
"""
