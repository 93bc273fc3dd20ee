"""The table's own rule data: Your board and Your cards (the facts no rule book publishes),
what the table learnt of its box, and King and Intrigue's card box."""
