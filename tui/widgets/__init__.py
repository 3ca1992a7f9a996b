"""Widgets of the jux TUI: the table, the decision panel."""
