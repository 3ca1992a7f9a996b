"""The `jux` command: main.py parses the command line, one module per command."""
