"""python -m jux: the command line (the same as the `jux` command)."""
import sys

from .interpreter.cli.main import main

sys.exit(main())
