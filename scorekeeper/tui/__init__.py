"""The Textual app (everything that imports textual lives here)."""
