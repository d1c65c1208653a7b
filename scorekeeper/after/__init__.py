"""After the game: statistics over a folder, exports (CSV, Markdown, BG Stats), the score report, charts."""
