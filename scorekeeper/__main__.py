"""`python -m scorekeeper` runs the command line."""

from scorekeeper.cli import main

raise SystemExit(main())
