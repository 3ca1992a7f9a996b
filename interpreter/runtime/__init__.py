"""What compiled rules run on: the game state as plain data (state.py) and the helpers the
generated code calls (chance, moving cards, decisions and threads, the log)."""
