"""The boots a link has seen: a boot back resumes after its last drop; a hello from before is stale."""

from firmware_bridge.link.boots import BootBook


def test_a_boot_seen_before_resumes_after_its_last_drop_handed_over():
    book = BootBook(resume=("castillo-a", "0000000a", 7))
    assert book.enter("castillo-a", "0000000a").delivered == 7
    book.enter("castillo-a", "0000000b").delivered = 3
    assert book.enter("castillo-a", "0000000b").delivered == 3
    assert book.enter("castillo-a", "0000000c").delivered == 0  # never seen: from the start


def test_past_its_limit_the_least_recently_used_boot_is_forgotten():
    book = BootBook(limit=2)
    for boot in ("00000001", "00000002", "00000001", "00000003"):
        book.enter("castillo-a", boot)
    assert book.knows("castillo-a", "00000001") and not book.knows("castillo-a", "00000002")


def test_a_hello_naming_fewer_boots_than_the_newest_seen_is_stale():
    book = BootBook()
    book.saw_hello("castillo-a", 5)
    current = book.enter("castillo-a", "00000005", boots=5)
    assert book.stale_hello("castillo-a", 4, current)
    assert book.stale_hello("castillo-a", 5, current)  # the current boot's own hello named 5 already
    assert not book.stale_hello("castillo-a", 6, current)
    # the current boot taken from a frame with no hello yet: a hello naming the newest count is adopted
    assert not book.stale_hello("castillo-a", 5, book.enter("castillo-a", "00000006"))
