"""What the phone server and the club board share: the one threaded aiohttp server."""
