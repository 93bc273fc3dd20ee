"""The tablet's dialogs (ModalViews), one .py (behaviour) + one .kv (layout) each.

Two frames: sheet.py's Sheet (the table's quick picks: secret_pick, reveal_cards, name_card,
card_facts, add_card, name_cards_left, board_facts, are_you_sure) and dialog.py's Dialog (the
small steps: private_pick, private_question, private_note, choice_list, confirm, outcome_shown,
history; widgets/phone_check). A new dialog subclasses one, loads its .kv with
Builder.load_file(Path(__file__).with_suffix(".kv")) and lays out its body there from the
frame's pieces (SheetBody/DialogBody, a title first, the message line, the foot row); what the
.py adds is what varies (a button per option). Class names stay unique: a .kv rule goes by it."""
