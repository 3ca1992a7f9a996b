"""Widgets of the jux TUI: the table, the decision panel, a one-line choice."""
