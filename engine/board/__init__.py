"""Board and card data: loaded from the JSON files in engine/data, validated once.

The files are the project's own copy of the printed board and cards, one pair per
rule set (`classic`, `2023`), plus `effects.json`, the vocabulary of special-action
effects every card file uses. A table may supply its own board file and card-set
file (the same vocabulary) to complete or correct the shipped data: `load_board`
and `load_cards` merge them in and validate the result exactly like the shipped
files. Pydantic checks the shape; the checks check what a schema cannot (symmetric
adjacency, scoreboards that do not increase, known effects and their parameters,
stack sizes). Every problem is one line naming the field and the rule it breaks.

Facts the rule books do not publish are never filled with a guess: their value is
None, and `Board.missing` maps the fact's path (e.g. "spaces.france.neighbours") to
a message naming it and how to supply it. `Board.provenance` says where each known
fact comes from (a rule book example, an inference, or "table").

    model.py         Board, CardSet, ActionCard, CASTILLO, MissingFactError: what the engine reads
    load.py          load_board, load_cards, side_for, player_range, BOARD_LOADERS: what a game reads
    files.py         the files' models (pydantic) and where the shipped files are
    checks.py        what a schema cannot check
    merge.py         the table's own files merged in (the card merge King and Intrigue shares)
    build.py         validated files -> Board and CardSet; build_board, classic_board
    effect_specs.py  the effect vocabulary (EFFECT_SPECS, EFFECT_PARAMS)
    errors.py        DataFileError and its kinds, RuleSetError; pydantic's errors as one line

Import a name from the module that defines it.
"""
