"""What the phone server and the club board share: the one threaded aiohttp server (server.py),
the connection limits every connection goes through (guard.py), and the capped places of
long-lived watchers, status screens and board pages (spectators.py)."""
