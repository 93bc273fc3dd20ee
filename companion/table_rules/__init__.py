"""The table's own rule data (no Kivy): the facts no rule book publishes, entered once at the
table and kept in the user data folder's rules folder, and what the table learnt of its box.

    rules_choice    the new game's rule set, modules and dummy, remembered for the next game
    board_file      Your board: the 2023 board's facts, one file per side
    card_file       Your cards: the 2023 card set and Power Shift's Modifier cards; export, import
    effect_offers   the card editor's effects: rule text and parameter fields
    new_game        what a new game takes from these files, and what the table must do first
    card_learning   cards and numbers the table learns during a game
    ki_cards        King and Intrigue's card set, checked and saved
    ki_box_table    its box table on Your cards: each fact a cell, entered by taps
    storage         the rules folder, each file read and written whole
"""
