"""What the Pilot tests of the terminal UI share: the screen as text, the notifications, and
waiting for a screen to come up."""
import html
import re


def screen_text(app) -> str:
    """What the terminal shows, as plain text (from Textual's own screenshot)."""
    svg = app.export_screenshot()
    return html.unescape(re.sub(r"<[^>]+>", "", svg)).replace("\xa0", " ")


def notes(app) -> str:
    """The notifications (toasts) the app has up; run_test must get notifications=True."""
    return " | ".join(n.message for n in app._notifications)


async def settle(pilot, app, screen_type, tries=50):
    """The app's screen once it is a screen_type (after up to `tries` pauses)."""
    for _ in range(tries):
        if isinstance(app.screen, screen_type):
            return app.screen
        await pilot.pause()
    raise AssertionError(f"expected {screen_type.__name__}, got {type(app.screen).__name__}")


async def shown(pilot, app, text: str, tries=100) -> str:
    """What the terminal shows once it shows text (after up to `tries` pauses: a screen just pushed
    is drawn a frame or more later on a loaded machine); an AssertionError with the screen if never."""
    for _ in range(tries):
        screen = screen_text(app)
        if text in screen:
            return screen
        await pilot.pause()
    raise AssertionError(f"{text!r} never shown; the screen: {screen_text(app)[-1500:]}")
