"""The rules' tables on the game screen: a table the rules show (`show`, e.g. at the end of a round)
that is new to the seat at the keyboard opens over the game, and the game waits until a key
closes it; the last one opens again on a key. A mixin of GameScreen (it holds which tables each
seat at the keyboard has seen)."""
from __future__ import annotations

from ..widgets.decision import DecisionPanel
from .tables import tables_of


class RulesTables:
    """What GameScreen does with the rules' tables (self.session, self.viewer, self.covered)."""

    def _count_seen(self, seats) -> None:
        """How many of the rules' tables each seat at the keyboard has seen (those of a loaded game: all)."""
        self._table_open = False
        self._tables_seen = {v: len(tables_of(self.session, v)) for v in seats}

    def _show_new_table(self) -> bool:
        """Open the first table the seat at the keyboard has not seen; True when one opened."""
        if self.covered:
            return False
        viewer = self.viewer
        tables = tables_of(self.session, viewer)
        seen = min(self._tables_seen.get(viewer, 0), len(tables))  # fewer after an undo
        if seen != self._tables_seen.get(viewer, 0):
            self._tables_seen[viewer] = seen
            self.refresh_bindings()
        if seen >= len(tables):
            return False
        self._tables_seen[viewer] = seen + 1
        self.refresh_bindings()
        self.refresh_table()
        self.query_one(DecisionPanel).wait("")
        self._open_table(tables[seen], then_advance=True)
        return True

    def _open_table(self, table: dict, then_advance: bool = False) -> None:
        from .tables import TableScreen

        self._table_open = True

        def closed(_):
            self._table_open = False
            if then_advance:
                self.advance()

        self.app.push_screen(TableScreen(table), closed)

    def action_last_table(self) -> None:
        """Show again the last table the rules showed (to the seat at the keyboard)."""
        if self.covered or self._table_open:
            return
        tables = tables_of(self.session, self.viewer)[:self._tables_seen.get(self.viewer, 0)]
        if not tables:
            self.notify("No table has been shown yet.", timeout=3)
            return
        self._open_table(tables[-1])
