"""The table in a browser: `serve` (textual-serve behind a token), the seats' registry and links, the page."""
