"""The Castillo tower at the table: the link to it, wired to the table, and teaching it colours."""
