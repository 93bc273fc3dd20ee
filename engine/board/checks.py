"""What a board or card file's schema cannot check: symmetric adjacency, scoreboards that do not
increase, known effects and their parameters, stack sizes, and a note for every unknown fact.
Every problem is one line naming the field and the rule it breaks."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NoReturn

from .effect_specs import EFFECT_PARAMS, EFFECT_SPECS, param_problem
from .errors import BoardDataError, DataFileError
from .files import MODULES, SIDES, BoardFile, CardFile, CardsFile
from .model import CASTILLO

if TYPE_CHECKING:
    from ..board.merge import Fail


def _board_facts(data: BoardFile) -> dict[str, Any]:
    """Every fact of a board, by path, with its value (None: unknown)."""
    facts: dict[str, Any] = {"regions": [r.id for r in data.regions], "scoring_order": [r.id for r in data.regions]}
    if data.spaces:
        facts["spaces"] = [s.id for s in data.spaces]
    for r in data.regions:
        facts[f"regions.{r.id}.scoreboard"] = r.scoreboard
        facts[f"regions.{r.id}.neighbours"] = r.neighbours
    facts["castillo.scoreboard"] = data.castillo.scoreboard
    for s in data.spaces:
        facts[f"spaces.{s.id}.neighbours"] = s.neighbours
    facts.update({f"scoring_groups.{k}": v for k, v in data.scoring_groups.items()})
    facts["scoring_places"] = data.scoring_places
    facts.update({f"power_cards.{k}": v for k, v in data.power_cards.items()})
    facts["mobile_scoreboards"] = data.mobile_scoreboards
    facts.update({f"scoring_tiles.{k}": v for k, v in data.scoring_tiles.items()})
    facts.update({f"rounds.{k}": v for k, v in data.rounds.items()})
    facts["players"] = (data.players.min, data.players.max)
    facts["players.colours"] = data.players.colours
    facts["caballeros_per_player"] = data.caballeros_per_player
    facts.update({f"setup.{k}": v for k, v in data.setup.items()})
    return facts


def _check_ids(data: BoardFile, fail: Fail) -> None:
    ids = [r.id for r in data.regions] + [s.id for s in data.spaces]
    for i, ident in enumerate(ids):
        kind = "regions" if i < len(data.regions) else "spaces"
        if ident == CASTILLO:
            fail(f"{kind}[castillo]: 'castillo' is the Castillo, not a region or space")
        if ident in ids[:i]:
            fail(f"{kind}[{ident}]: id used twice (region and space ids must be unique)")


def _check_adjacency(data: BoardFile, fail: Fail) -> None:
    by_id = {r.id: r for r in data.regions}
    spaces = {s.id for s in data.spaces}
    for r in data.regions:
        where = f"regions[{r.id}].neighbours"
        for n in r.neighbours:
            if n in spaces:
                fail(
                    f"{where}: {n} is a space, not a region (a space's neighbours are given "
                    f"on the space: spaces[{n}].neighbours)"
                )
            if n not in by_id:
                fail(f"{where}: unknown neighbour {n!r} (regions: {', '.join(by_id)})")
            if n == r.id:
                fail(f"{where}: a region does not neighbour itself")
        if len(set(r.neighbours)) != len(r.neighbours):
            fail(f"{where}: a neighbour is listed twice")
    for r in data.regions:
        for other in data.regions:
            if r.id in other.neighbours and other.id not in r.neighbours:
                fail(
                    f"regions[{r.id}].neighbours: {other.id} lists {r.id} but {r.id} does not list {other.id}: "
                    "adjacency is not symmetric (every border is listed on both sides)"
                )
    for s in data.spaces:
        for n in s.neighbours or ():
            if n not in by_id:
                fail(f"spaces[{s.id}].neighbours: {n!r} is not a region (regions: {', '.join(by_id)})")
        if s.neighbours is not None and len(set(s.neighbours)) != len(s.neighbours):
            fail(f"spaces[{s.id}].neighbours: a neighbour is listed twice")
        if s.neighbours is not None and not s.neighbours:
            # Exile: "The neighboring regions to France and Portugal work the same way as usual".
            fail(
                f"spaces[{s.id}].neighbours: empty; list the regions it borders on your board "
                "(or leave the field out while they are not known)"
            )


def _check_scoreboard(where: str, board: tuple[int, int, int] | None, fail: Fail) -> None:
    if board is None:
        return
    if min(board) < 0:
        fail(f"{where}: {list(board)}: points may not be negative")
    if list(board) != sorted(board, reverse=True):
        fail(f"{where}: {list(board)}: scoreboard must not increase (1st >= 2nd >= 3rd place)")


def _check_scoreboards(data: BoardFile, fail: Fail) -> None:
    for r in data.regions:
        _check_scoreboard(f"regions[{r.id}].scoreboard", r.scoreboard, fail)
    _check_scoreboard("castillo.scoreboard", data.castillo.scoreboard, fail)
    for key, mobile in data.mobile_scoreboards.items():
        _check_scoreboard(f"mobile_scoreboards.{key}", mobile, fail)
    for key, tile in data.scoring_tiles.items():
        _check_scoreboard(f"scoring_tiles.{key}", tile, fail)
    for key, tops in data.scoring_groups.items():
        if not tops:
            fail(f"scoring_groups.{key}: names no first-place value")


def _check_rest(data: BoardFile, fail: Fail) -> None:
    if sorted(data.power_cards) != list(range(1, len(data.power_cards) + 1)):
        fail("power_cards: power cards must be numbered 1..N")
    for value, caballeros in data.power_cards.items():
        if not 0 <= caballeros <= data.caballeros_per_player:
            fail(f"power_cards.{value}: {caballeros} Caballeros is not 0..{data.caballeros_per_player}")
    full = data.rounds.get("full")
    if full is None or "general_scoring_after" not in data.rounds:
        fail("rounds: needs 'full' and 'general_scoring_after'")
    for name, rounds in data.rounds.items():
        if rounds != sorted(set(rounds)) or not set(rounds) <= set(full):
            fail(f"rounds.{name}: must be rounds of the full game in increasing order")
    if data.players.min > data.players.max:
        fail(f"players: min {data.players.min} is more than max {data.players.max}")
    if (data.side == "classic") != (data.rules == "classic"):
        fail(f"side: {data.side!r} is not a side of the {data.rules} board (sides: {', '.join(SIDES[data.rules])})")


def _check_missing(data: BoardFile, fail: Fail) -> None:
    """Every unknown fact has a note saying so; no note stands for a known fact."""
    facts = _board_facts(data)
    for path, value in facts.items():
        if value is None and path not in data.missing:
            fail(
                f"{_file_path(path)}: is unknown (null) but missing.{path} says nothing about it "
                "(an unknown fact needs a note naming it)"
            )
    for path in data.missing:
        if path not in facts:
            fail(f"missing.{path}: no such fact on this board")
        if facts[path] is not None:
            fail(f"missing.{path}: the fact is given, so it is not missing")
    if data.rules != "classic":
        for path, value in facts.items():
            if value is not None and path not in data.provenance:
                fail(f"provenance.{path}: says nothing; every fact of the {data.rules} board names its source")
    for path in data.provenance:
        if path not in facts:
            fail(f"provenance.{path}: no such fact on this board")


def _file_path(fact: str) -> str:
    """'regions.galicia.scoreboard' -> 'regions[galicia].scoreboard' (how a file names it)."""
    head, _, rest = fact.partition(".")
    if head in ("regions", "spaces") and rest:
        ident, _, tail = rest.partition(".")
        return f"{head}[{ident}]" + (f".{tail}" if tail else "")
    return fact


def check_board(data: BoardFile, err: type[DataFileError] = BoardDataError) -> None:
    def fail(message: str) -> NoReturn:
        raise err(message)

    _check_ids(data, fail)
    _check_adjacency(data, fail)
    _check_scoreboards(data, fail)
    _check_rest(data, fail)
    _check_missing(data, fail)


# ---------------------------------------------------------------- card checks


def _check_card_params(c: CardFile, fail: Fail, where: str) -> None:
    spec = EFFECT_SPECS[c.effect]
    needed = sorted(EFFECT_PARAMS[c.effect] - set(c.params))
    if needed:
        fail(
            f"{where}.params: effect {c.effect} needs {', '.join(needed)} "
            f"({'; '.join(f'{p}: {spec.params[p].meaning}' for p in needed)})"
        )
    for pname, value in c.params.items():
        if pname not in spec.params:
            fail(
                f"{where}.params.{pname}: not a parameter of effect {c.effect} "
                f"(parameters: {', '.join(spec.params) or 'none'})"
            )
        if value is None:
            if f"params.{pname}" not in c.missing:
                fail(
                    f"{where}.params.{pname}: is unknown (null) but the card's missing says nothing "
                    "about it (an unknown value needs a note)"
                )
            continue
        problem = param_problem(spec.params[pname], value)
        if problem:
            fail(f"{where}.params.{pname}: {problem}")


def _check_card_fields(c: CardFile, cards: CardsFile, fail: Fail, where: str) -> None:
    if c.effect not in EFFECT_SPECS:
        fail(f"{where}.effect: unknown effect {c.effect!r} (effects: {', '.join(EFFECT_SPECS)})")
    rule_sets = EFFECT_SPECS[c.effect].rules
    if cards.rules not in rule_sets:
        fail(
            f"{where}.effect: {c.effect} is not an effect of the {cards.rules} rules "
            f"(it belongs to: {', '.join(rule_sets)})"
        )
    _check_card_params(c, fail, where)
    unknown = {"stack": c.stack, "copies": c.copies}
    if "placement" in c.model_fields_set:
        unknown["placement"] = c.placement
    for name, value in unknown.items():
        if value is None and name not in c.missing:
            fail(
                f"{where}.{name}: is unknown (null) but the card's missing says nothing about it "
                "(an unknown value needs a note)"
            )
    for key in c.missing:
        known = key.removeprefix("params.") in c.params if key.startswith("params.") else key in unknown
        value = c.params.get(key[7:]) if key.startswith("params.") else unknown.get(key)
        if not known or value is not None:
            fail(f"{where}.missing.{key}: the value is given (or there is no such field), so it is not missing")
    if c.module is not None and c.module not in cards.modules:
        fail(f"{where}.module: unknown module {c.module!r} (modules: {', '.join(cards.modules) or 'none'})")
    if c.stack is not None and c.stack not in cards.placements:
        fail(f"{where}.stack: stack {c.stack} has no placement number (placements)")
    sizes = cards.modules[c.module].stack_sizes if c.module else cards.stack_sizes
    if c.stack is not None and sizes is not None and c.stack not in sizes:
        owner = f"module {c.module}" if c.module else "the base game"
        fail(f"{where}.stack: {owner} has no stack {c.stack} (stacks: {', '.join(map(str, sizes))})")


def _stack_counts(cards: CardsFile) -> dict[tuple[str | None, int], tuple[int, int, list[str]]]:
    """(module, stack) -> (cards at least, cards known, ids); unknown copies count 1 at least, 0 known
    (an id is marked "?" then)."""
    counts: dict[tuple[str | None, int], tuple[int, int, list[str]]] = {}
    for c in cards.cards:
        if c.stack is None:
            continue
        least, known, ids = counts.get((c.module, c.stack), (0, 0, []))
        label = c.id if c.copies else f"{c.id} ×?"
        counts[(c.module, c.stack)] = (least + (c.copies or 1), known + (c.copies or 0), ids + [label])
    return counts


def _check_stack_sizes(cards: CardsFile, fail: Fail) -> None:
    if cards.stack_sizes is None:  # classic: the cards make the stacks
        if {c.stack for c in cards.cards} != set(cards.placements):
            fail("cards: every stack needs at least one card")
        return
    for (module, stack), (least, _, ids) in _stack_counts(cards).items():
        size = (cards.modules[module].stack_sizes if module else cards.stack_sizes)[stack]
        if least > size:
            where = f"modules.{module}.stack_sizes.{stack}" if module else f"stack_sizes.{stack}"
            fail(
                f"cards: stack {stack}{f' of {module}' if module else ''} would hold at least {least} cards "
                f"({', '.join(ids)}) but holds {size} ({where})"
            )


def check_cards(cards: CardsFile, err: type[DataFileError] = BoardDataError) -> None:
    def fail(message: str) -> NoReturn:
        raise err(message)

    seen: set[str] = set()
    for c in cards.cards:
        if c.id in seen:
            fail(f"cards[{c.id}]: id used twice (card ids must be unique)")
        seen.add(c.id)
        _check_card_fields(c, cards, fail, f"cards[{c.id}]")
    _check_stack_sizes(cards, fail)
    if cards.rules == "2023" and any(m not in MODULES for m in cards.modules):
        fail(f"modules: the 2023 modules with cards are {', '.join(MODULES)}")


def cards_missing(cards: CardsFile) -> dict[str, str]:
    """The card facts not known: each card's notes, and stacks with fewer known cards than they hold."""
    missing = {f"cards.{c.id}.{k}": note for c in cards.cards for k, note in c.missing.items()}
    if cards.stack_sizes is None:
        return missing
    counts = _stack_counts(cards)
    no_stack = sum(1 for c in cards.cards if c.stack is None)
    groups = [(None, cards.stack_sizes)] + [(m, f.stack_sizes) for m, f in cards.modules.items()]
    for module, sizes in groups:
        for stack, size in sizes.items():
            _, known, ids = counts.get((module, stack), (0, 0, []))
            if known < size:
                key = f"modules.{module}.stacks.{stack}" if module else f"stacks.{stack}"
                missing[key] = _stack_note(module, stack, size, known, ids, 0 if module else no_stack)
    return missing


def _stack_note(module: str | None, stack: int, size: int, known: int, ids: list[str], no_stack: int) -> str:
    whose = f"The {module} module's stack {stack}" if module else f"Stack {stack}"
    listed = f" (listed: {', '.join(ids)}; ×? = copies unknown)" if ids else ""
    loose = f"; {no_stack} listed cards have no known stack yet" if no_stack else ""
    where = f"stack {stack}" + (f' and module "{module}"' if module else "")
    return (
        f"{whose} holds {size} card{'s' * (size > 1)}; the card set accounts for {known}{listed}{loose}: "
        f"enter the others from your cards (card file: cards[] with {where})"
    )
