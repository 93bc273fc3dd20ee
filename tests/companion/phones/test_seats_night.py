"""Seats over a game night (seats.reseat and the lobby), without a server: which phone goes to
which seat of the next game, when the tablet is asked again, and what the old codes say."""

from __future__ import annotations

from companion.phones.seats import LOBBY_LIMIT, Joined, Seats, seat_identity


def joined(seats: Seats, pid: str, confirm: bool = True) -> str:
    j = seats.join(seats.pending_code(pid), "Firefox on Android")
    assert isinstance(j, Joined)
    if confirm:
        assert seats.confirm(pid, j.phone.serial)
    return j.credential


def test_who_sits_at_a_seat():
    assert seat_identity("red", "Red") == seat_identity("red", "") == seat_identity("red", " red ") == "colour:red"
    assert seat_identity("red", "Ana") == seat_identity("blue", "  ana ") == "name:ana"
    assert seat_identity("red", "Blue") == "name:blue"  # a player named Blue is not the blue seat


def test_phones_follow_names_then_unnamed_colours():
    seats = Seats(
        ["red", "yellow", "green", "blue"], names={"red": "Ana", "yellow": "Bruno", "green": "Green", "blue": "Dora"}
    )
    creds = {pid: joined(seats, pid) for pid in ("red", "yellow", "green")}
    creds["blue"] = joined(seats, "blue", confirm=False)  # the tablet never answered for Dora's phone
    old_code = seats.pending_code("red")
    assert old_code is None
    seats.reseat(
        ["red", "yellow", "green", "blue", "black"],
        {"red": "Bruno", "yellow": "Ana", "green": "Green", "blue": "Dora", "black": "Eva"},
    )
    assert seats.seat_for(creds["yellow"]) == "red" and seats.confirmed("red")  # Bruno: by name
    assert seats.seat_for(creds["red"]) == "yellow" and seats.confirmed("yellow")  # Ana: by name
    assert seats.seat_for(creds["green"]) == "green" and seats.confirmed("green")  # nobody named: the colour
    assert seats.seat_for(creds["blue"]) == "blue" and not seats.confirmed("blue")  # still to be confirmed
    assert seats.phone("yellow").was == "Ana (Red)" and seats.code_state("black") == "open"
    assert seats.lobby() == []


def test_another_player_at_the_same_colour_is_not_given_the_phone():
    seats = Seats(["red", "blue"], names={"red": "Ana", "blue": "Blue"})
    ana, blue = joined(seats, "red"), joined(seats, "blue")
    spent = [s for s in [seats.pending_code("red")] if s]
    seats.reseat(["red", "blue"], {"red": "Carl", "blue": "Dora"})
    # Carl now plays red and Dora blue: neither phone is theirs; both wait, asked for a seat.
    assert seats.seat_for(ana) is None and seats.seat_for(blue) is None
    lobby = seats.lobby()
    assert [p.was for p in lobby] == ["Ana (Red)", "Blue"]
    assert seats.suggested(lobby[0]) == "red" and seats.suggested(lobby[1]) == "blue"
    assert seats.locate(ana)[1] is not None and spent == []
    # Ana's phone takes Carl's seat: held, but the tablet must confirm (it vouched for Ana's phone).
    taken = seats.take_seat(ana, "red")
    assert taken.serial == lobby[0].serial and not taken.confirmed
    assert seats.take_seat(blue, "red") == "taken" and seats.take_seat(blue, "black") == "no_seat"
    assert seats.take_seat("x" * 43, "blue") == "unknown" and seats.take_seat(ana, "blue") == "unknown"
    # No: back to choosing, still Ana's phone; red gets a new code.
    assert seats.unseat("red", taken.serial)
    assert seats.code_state("red") == "open" and {p.serial: p.was for p in seats.lobby()}[taken.serial] == "Ana (Red)"
    assert seats.forget(lobby[1].serial) and seats.locate(blue) == (None, None)
    assert not seats.forget(lobby[1].serial)


def test_the_same_name_twice_is_no_identity_and_old_codes_are_replaced():
    seats = Seats(["red", "blue"], names={"red": "Ana", "blue": "Ben"})
    ana = joined(seats, "red")
    old = seats.pending_code("blue")
    seats.reseat(["red", "blue"], {"red": "Ana", "blue": "ana"})
    assert seats.seat_for(ana) is None and len(seats.lobby()) == 1  # two Anas: the phone asks
    assert seats.refusal(old) == "replaced" and seats.join(old) == "replaced"


def test_leaving_and_coming_back_needs_no_question_and_the_lobby_is_bounded():
    seats = Seats(["red"])
    red = joined(seats, "red")
    assert seats.leave_seat(red) == "red" and seats.seat_for(red) is None
    assert seats.code_state("red") == "open" and seats.leave_seat(red) is None
    back = seats.take_seat(red, "red")
    assert back.confirmed and seats.joined("red")
    seats.leave_seat(red)
    phones = [red]
    for _ in range(LOBBY_LIMIT + 3):  # phones of many earlier games, none of them seated now
        phones.append(joined(seats, "red"))
        seats.leave_seat(phones[-1])
    assert len(seats.lobby()) == LOBBY_LIMIT
    assert seats.locate(phones[0]) == (None, None) and seats.locate(phones[-1])[1] is not None
