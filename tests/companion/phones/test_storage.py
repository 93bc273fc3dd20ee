"""A phone's pick the tablet's storage cannot keep is refused in the table's one line, with no
path of the tablet's in it, and the same pick goes through once space returns (issue 31: the
refusal used to carry the server's full file path)."""

from __future__ import annotations

from tests.companion.phones.conftest import join, make_table, to_general_scoring
from tests.companion.phones.test_ordering import disc, http_pick, log_lines
from tests.companion.storage.test_full_disk import file_size_limit


def test_a_pick_on_a_full_storage_is_refused_in_one_line_without_a_path(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    cred = join(server, "red")
    qid = table.question_id()
    lines = log_lines(table)
    with file_size_limit(table.path.stat().st_size + 10):
        status, body = http_pick(server, cred, qid, "aragon", seq=1)
    words = str(body)
    assert status != 200 and "nothing of it was kept" in words, body
    assert str(table.path.parent) not in words and "/" not in body.get("error", words)
    assert log_lines(table) == lines and disc(table, "red") is None
    status, body = http_pick(server, cred, qid, "aragon", seq=2)  # space returned
    assert status == 200, body
    assert disc(table, "red") == "aragon" and log_lines(table) == lines + 1
