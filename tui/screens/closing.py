"""ClosesOnce: a screen that closes once. Keys typed quickly are queued for the screen that was on
top when they were typed; the first that closes it must not let the next close the screen under it
(Textual's dismiss pops whatever screen is on top). Mixed in before Screen or ModalScreen."""
from __future__ import annotations


class ClosesOnce:
    def dismiss(self, result=None):
        """Close with result, or nothing when this screen is no longer the one on top."""
        if not self.is_active:
            return None
        return super().dismiss(result)
