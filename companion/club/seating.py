"""How a round is seated once the table sizes are known: the first round in a random order, later
rounds by standings with as few rematches as can be found. Pure functions of names: the
tournament (companion.club.tournament) decides who plays, the table sizes and the byes.

Later rounds seat by standings: each table takes the best player still free, then the next best who
has met nobody at the table yet; only when every free player would be a rematch does the best of
them sit there. Then players of two tables swap seats while a swap lowers the round's rematches (the
best swaps first: the most rematches gone, then the closest places), within a bounded number of
swaps weighed, so seating a 2000-player round never holds the board up for more than about a second.
"""

from __future__ import annotations


def in_order(order: list[str], sizes: list[int]) -> list[list[str]]:
    """The players in `order` at tables of `sizes`, in turn (the first round: a shuffled order)."""
    groups, i = [], 0
    for size in sizes:
        groups.append(order[i : i + size])
        i += size
    return groups


def met_over(rounds: list[dict]) -> dict[str, set[str]]:
    """Who has sat with whom, over `rounds` (the journal's round records)."""
    met: dict[str, set[str]] = {}
    for rnd in rounds:
        for names in rnd["tables"].values():
            for p in names:
                met.setdefault(p, set()).update(q for q in names if q != p)
    return met


def seat_by_standings(sizes: list[int], free: list[str], met: dict[str, set[str]]) -> list[list[str]]:
    """`free` (best first) at tables of `sizes`: each takes the best still free, then the next best
    who has met nobody there (`met`: who sat with whom), then swaps lower the rematches left."""
    free = list(free)
    place = {name: i for i, name in enumerate(free)}
    groups = []
    for size in sizes:
        group = [free.pop(0)]
        while len(group) < size:
            fresh = next((p for p in free if not any(p in met.get(q, ()) for q in group)), None)
            pick = fresh if fresh is not None else free[0]
            free.remove(pick)
            group.append(pick)
        groups.append(group)
    return fewer_rematches(groups, met, place)


def clashes(group: list[str], met: dict[str, set[str]]) -> int:
    return sum(1 for i, p in enumerate(group) for q in group[i + 1 :] if q in met.get(p, ()))


def _met_at(p: str, group: list[str], met: dict[str, set[str]], leaving: str) -> int:
    """How many at `group` (but `leaving`) `p` has sat with."""
    seen = met.get(p, ())
    return sum(1 for q in group if q != leaving and q in seen)


SWAP_BUDGET = 300_000  # swaps weighed per round seated: a bound on the time the board is held


def fewer_rematches(groups: list[list[str]], met: dict[str, set[str]], place: dict[str, int]) -> list[list[str]]:
    """Swaps players of two tables while that lowers the round's rematches: each pass weighs
    every swap, then makes the best ones (the most rematches gone; of those, the closest places,
    so seating stays by standings), at most one per table a pass so each stays as weighed. Only
    a player who has met someone at their table is moved (the other side weighs the rest).
    Every swap lowers the count, so this ends; SWAP_BUDGET bounds the swaps weighed (under a
    second on a laptop: the board stays live; past it the seating keeps what it has)."""
    groups = [list(g) for g in groups]
    weighed = 0
    while weighed < SWAP_BUDGET:
        better = []
        for a in range(len(groups)):
            for b, p, p_home, q in _candidate_swaps(groups, a, met):
                weighed += 1
                gain = (
                    p_home
                    + _met_at(q, groups[b], met, q)
                    - _met_at(q, groups[a], met, p)
                    - _met_at(p, groups[b], met, q)
                )
                if gain > 0:
                    better.append(((-gain, abs(place[p] - place[q]), place[p], place[q]), a, p, b, q))
            if weighed >= SWAP_BUDGET:
                break
        if not better:
            break
        touched: set[int] = set()
        for _, a, p, b, q in sorted(better):
            if a not in touched and b not in touched:
                groups[a][groups[a].index(p)], groups[b][groups[b].index(q)] = q, p
                touched.update((a, b))
    return groups


def _candidate_swaps(groups: list[list[str]], a: int, met: dict[str, set[str]]):
    """(table b, p at table a who has met someone there, how many, q at b)."""
    movers = [(p, home) for p in groups[a] if (home := _met_at(p, groups[a], met, p))]
    if movers:
        for b in range(len(groups)):
            if b != a:
                for p, p_home in movers:
                    for q in groups[b]:
                        yield b, p, p_home, q
