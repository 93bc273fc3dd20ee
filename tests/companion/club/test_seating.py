"""Seating a round (companion.club.seating): by standings, with swaps that take rematches away."""

from companion.club.seating import clashes, fewer_rematches


def test_a_round_where_every_table_holds_rematches_is_untangled_by_swaps():
    """200 players who each sat with the 7 others of their block of 8, seated by 4 in order: every
    table holds 6 rematches (300). Swaps between tables take them all away."""
    names = [f"P{i:03d}" for i in range(200)]
    met = {p: {q for q in names[i // 8 * 8 : i // 8 * 8 + 8] if q != p} for i, p in enumerate(names)}
    groups = [names[i : i + 4] for i in range(0, 200, 4)]
    assert sum(clashes(g, met) for g in groups) == 300
    seated = fewer_rematches(groups, met, {p: i for i, p in enumerate(names)})
    assert sum(clashes(g, met) for g in seated) == 0
    assert sorted(p for g in seated for p in g) == names and all(len(g) == 4 for g in seated)
