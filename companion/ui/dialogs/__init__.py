"""The tablet's dialogs (ModalViews)."""
