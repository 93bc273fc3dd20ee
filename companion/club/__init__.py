"""Club night (issue 15): tables publish their public state to a club MQTT broker;
`elgrande club` shows every table on a room board and keeps a tournament's standings.

- topics: the topic layout and the state message (what a table may say: public only)
- publisher: a table's side (retained state, Last Will, reconnects)
- tournament: players, seating, results taken exactly once, standings (pure) and its journal
- board: the organiser's side (subscriber, aiohttp room board, organiser actions)
"""
