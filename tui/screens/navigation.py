"""Getting around the game screen: Enter from any focus, the whole log (g), each seat's area (] and
[). A mixin of GameScreen (self.session, self.viewer, self.covered)."""
from __future__ import annotations

from ..widgets.decision import DecisionPanel
from ..widgets.table import TableView


class Navigation:
    def action_enter(self) -> None:
        """Enter where the focus does not take it (the table, the log): the decision panel's Enter."""
        if not self.covered:
            self.query_one(DecisionPanel).enter()

    def action_log(self) -> None:
        """The whole log, full screen (screens/log.py)."""
        from .log import LogScreen

        if not self.covered:
            self.app.push_screen(LogScreen(self.session, self.viewer))

    def action_seat(self, step: int) -> None:
        """The table scrolled to the next (step 1) or previous (-1) seat's area, round the table."""
        if self.covered:
            return
        rows = self.query_one(TableView).seat_rows()
        if not rows:
            return
        scroll = self.query_one("#table-scroll")
        top = round(scroll.scroll_y)
        # the seat whose area is at the top of the table now (the lines above the first: its);
        # scrolled to the bottom, the last seat in sight (the seats below it cannot come higher)
        seen = top + scroll.size.height - 1 if step > 0 and top >= scroll.max_scroll_y > 0 else top
        at = max((k for k, (_, row) in enumerate(rows) if row <= seen), default=0)
        k = (at + step) % len(rows)
        seat, row = rows[k]
        scroll.scroll_to(y=row, animate=False, immediate=True)
        self.notify(f"{self.session.names[seat]}'s area", timeout=1.5, markup=False)
