"""What a question means on a phone, for each rule system: pure functions of a Table (no server,
no sockets, no threads). The phone server reads the table through them and checks answers with them.

- discs.py: the secret disc of every rule system (regions a seat may pick, the last reveal, a pick)
- disc_words.py: the words of a 2023 or King and Intrigue disc whose purpose is new (card-specific)
- cards.py: private card choices (Power Shift's Modifier cards dealt and passed, a card taken back,
  King and Intrigue's Power cards kept), by face and value
- veto.py: the 2023 Veto, asked of every holder at once
- private.py: which rule systems ask private choices besides the discs, and each seat's question
- snapshot.py: one coherent read of the table, as the phone views are built from
- memory.py: what is remembered of one game's questions between two reads
"""
