"""Screens of the jux TUI."""
