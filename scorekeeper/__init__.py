"""scorekeeper: keeps score at the end of a board game of the "Ticket" family."""
