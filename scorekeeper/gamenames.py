"""Each game's name by id, in the order `games` lists them: lists of sessions show them without importing any game."""

NAMES = {"ticket-booth": "The Ticket Booth", "ticket-to-ride": "Ticket to Ride",
         "ticket-to-finland": "Ticket to Finland", "ticket-to-mars": "Ticket to Mars"}
"""Each game's name by id: the one place it is written (each game's `name` is read from here)."""
