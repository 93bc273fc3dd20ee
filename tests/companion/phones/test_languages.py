"""Each phone reads its own page's language, whatever the tablet's: the same question reaches two
phones in two languages, a refusal comes back in the words of the phone that was refused, a page
switches language on its socket, and the tablet's own words stay in the tablet's language. What
a phone may see stays as private as before: only its own seat's view, in its language."""

from __future__ import annotations

import json

import aiohttp

from companion.words import language
from tests.companion.phones.conftest import PICKS, http, join, make_table, to_general_scoring
from tests.companion.phones.wsclient import run, until, url

GENERAL = {
    "en": "General scoring: where do your Castillo Caballeros go?",
    "de": "Hauptwertung: Wohin gehen deine Caballeros aus dem Castillo?",
    "es": "Puntuación general: ¿adónde van tus Caballeros del Castillo?",
    "fr": "Décompte général : où vont tes Caballeros du Castillo ?",
}


def view(m):
    return m["type"] == "view" and m["question"]["state"] == "choose"


async def hello(session, server, credential, lang=None, accept=None):
    headers = {"Accept-Language": accept} if accept else {}
    ws = await session.ws_connect(url(server, "/ws"), headers=headers)
    await ws.send_json({"type": "hello", "credential": credential, **({"lang": lang} if lang else {})})
    return ws


def test_two_phones_get_the_same_question_each_in_its_own_language(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in ("red", "yellow", "green")}

    async def go():
        async with aiohttp.ClientSession() as s:
            red = await hello(s, server, creds["red"], lang="de")
            yellow = await hello(s, server, creds["yellow"], lang="es-ES")
            green = await hello(s, server, creds["green"], accept="fr-FR,fr;q=0.9,en;q=0.5")  # no lang: the browser's
            seen = {pid: await until(ws, view) for pid, ws in (("red", red), ("yellow", yellow), ("green", green))}
            # A pick that is not offered: refused in the words of the phone that sent it.
            await red.send_json(
                {"type": "pick", "credential": creds["red"], "question": seen["red"]["question"]["id"], "region": "x"}
            )
            refused = await until(red, lambda m: m["type"] == "error")
            # The Spanish page switches to French on its socket: its view comes again, in French.
            await yellow.send_json({"type": "lang", "credential": creds["yellow"], "lang": "fr"})
            switched = await until(yellow, lambda m: view(m) and m["question"]["title"] == GENERAL["fr"])
            for ws in (red, yellow, green):
                await ws.close()
            return seen, refused, switched

    seen, refused, switched = run(go())
    assert seen["red"]["question"]["title"] == GENERAL["de"]
    assert seen["yellow"]["question"]["title"] == GENERAL["es"]
    assert seen["green"]["question"]["title"] == GENERAL["fr"]
    # The same question: the same id, the same regions offered, each seat's own name and colour word.
    assert len({m["question"]["id"] for m in seen.values()}) == 1
    assert len({tuple(r["id"] for r in m["question"]["regions"]) for m in seen.values()}) == 1
    assert (seen["red"]["seat"]["name"], seen["red"]["seat"]["colour"]) == ("Ana", "Rot")
    assert (seen["yellow"]["seat"]["name"], seen["yellow"]["seat"]["colour"]) == ("Bruno", "Amarillo")
    assert seen["green"]["seat"]["colour"] == "Vert"
    assert refused["message"] == "Diese Region steht dir nicht zur Wahl; wähle eine aus der Liste."
    assert switched["seat"]["colour"] == "Jaune" and switched["seat"]["id"] == "yellow"
    # The tablet's own words (its confirmations, its status feed) stay in the tablet's language.
    assert language() == "en"
    assert server.status()["seats"][0]["colour"] == "Red"


def test_a_view_in_one_language_holds_only_that_seats_secrets(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    creds = {pid: join(server, pid) for pid in ("red", "yellow")}

    async def go():
        async with aiohttp.ClientSession() as s:
            red = await hello(s, server, creds["red"], lang="de")
            yellow = await hello(s, server, creds["yellow"], lang="es")
            first = await until(yellow, view)
            await red.send_json(
                {
                    "type": "pick",
                    "credential": creds["red"],
                    "question": first["question"]["id"],
                    "region": PICKS["red"],
                    "seq": 1,
                }
            )
            mine = await until(red, lambda m: view(m) and m["question"]["pick"])
            frames = []
            await until(
                yellow, lambda m: m["type"] == "view" and "Ana" not in m["question"]["waiting_for"], seen=frames
            )
            for ws in (red, yellow):
                await ws.close()
            return mine, frames

    mine, frames = run(go())
    assert mine["question"]["pick"]["id"] == PICKS["red"]
    assert mine["question"]["hint"] == "Du kannst deine Wahl ändern, bis das Tablet die Scheiben aufdeckt."
    for frame in frames:  # the Spanish phone learns that Ana chose, never what
        assert frame["question"]["pick"] is None and frame["seat"]["id"] == "yellow"
        assert frame["question"]["title"] == GENERAL["es"]


def test_http_answers_read_the_pages_language(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)
    cred = join(server, "blue")
    auth = {"Authorization": f"Bearer {cred}"}
    status, _, body = http(server, "GET", "/api/me?lang=es", headers=auth)
    assert status == 200 and json.loads(body)["question"]["title"] == GENERAL["es"]
    status, _, body = http(server, "GET", "/api/me", headers={**auth, "Accept-Language": "de-AT,de;q=0.9"})
    assert status == 200 and json.loads(body)["question"]["title"] == GENERAL["de"]
    status, _, body = http(
        server, "GET", "/api/me", headers={"Authorization": "Bearer nobody", "Accept-Language": "fr"}
    )
    assert status == 401 and json.loads(body)["error"].startswith("Ce téléphone n'est lié à aucune place")
    # The page itself: every language's words written in, its <html lang> the browser's.
    status, _, page = http(server, "GET", "/", headers={"Accept-Language": "es-MX,es;q=0.8"})
    assert status == 200 and b'<html lang="es">' in page and b"Geheimscheibe" in page
    # A spent code's page, in the browser's language.
    code = server.seat_url("red").rsplit("/", 1)[1]
    join_status, _, _ = http(server, "POST", "/api/join", {"code": code})
    assert join_status == 200
    status, _, gone = http(server, "GET", f"/join/{code}", headers={"Accept-Language": "de"})
    assert status == 410 and b"Dieser Code wurde schon benutzt" in gone and b'lang="de"' in gone


def test_each_status_screen_reads_its_own_pages_language(start_server):
    table = make_table("scoring")
    to_general_scoring(table)
    server = start_server(table)

    def status(m):
        return m["type"] == "status" and m["seats"]

    async def go():
        async with aiohttp.ClientSession() as s:
            german = await s.ws_connect(url(server, "/ws/status?lang=de"))
            french = await s.ws_connect(url(server, "/ws/status"), headers={"Accept-Language": "fr-FR,fr;q=0.9"})
            english = await s.ws_connect(url(server, "/ws/status"))
            seen = {
                "de": await until(german, lambda m: status(m) and m["seats"][0]["colour"] == "Rot"),
                "fr": await until(french, lambda m: status(m) and m["seats"][0]["colour"] == "Rouge"),
                "en": await until(english, status),
            }
            for ws in (german, french, english):
                await ws.close()
            return seen

    seen = run(go())
    assert seen["en"]["seats"][0]["colour"] == "Red"
    # The same facts in every language: only the words differ.
    assert {m["seq"] for m in seen.values()} == {seen["en"]["seq"]}
    assert [s["id"] for s in seen["de"]["seats"]] == [s["id"] for s in seen["en"]["seats"]]
    assert language() == "en" and server.status()["seats"][0]["colour"] == "Red"  # the tablet's stays
