"""The session model: frozen dataclasses, exact points, located problems, untrusted text; no I/O, no games."""
