"""ClosesOnce: a screen that closes once. Keys typed quickly are queued for the screen that was on
top when they were typed; the first that closes it must not let the next close the screen under it
(Textual's dismiss pops whatever screen is on top). Mixed in before Screen or ModalScreen.

if_open: a screen's on_mount that does nothing when the screen was closed before it was mounted
(a key typed at once, a screen replaced as it opened): its widgets are gone by then, and looking
for them (query_one) would end the app in a traceback."""
from __future__ import annotations

import functools


def still_open(screen) -> bool:
    """Whether screen is still on the app's stack of screens (a closed one may stay attached a
    while, its widgets going): what a late thread's answer or a late mount checks first."""
    return screen.is_attached and screen in screen.app.screen_stack


def if_open(on_mount):
    """Run on_mount only while its screen is still open (still_open)."""
    @functools.wraps(on_mount)
    def run(self, *args, **kwargs):
        if not still_open(self):
            return None
        return on_mount(self, *args, **kwargs)
    return run


class ClosesOnce:
    def dismiss(self, result=None):
        """Close with result, or nothing when this screen is no longer the one on top."""
        if not self.is_active:
            return None
        return super().dismiss(result)
