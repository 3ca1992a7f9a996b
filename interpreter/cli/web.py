"""`jux serve --web`: the terminal UI as a web page, for a player without jux (textual-serve).

`http://HOST:PORT/join/CODE` opens the table of a seat's invitation code in the browser: the page
is textual-serve's terminal, and its websocket (`/ws/CODE`) runs `jux join --server GAME_URL`
behind it, one process per tab, a client of the game server like any other (on loopback). The
code reaches that process in the environment (JUX_CODE), never on a command line; nothing here
logs a request's address (no access log) and what a process writes on stderr is logged as one
line with the code blotted out. An address without a seat's valid code is a page that says why."""
from __future__ import annotations

import asyncio
import html
import logging
import re
import shlex
import sys

from aiohttp import WSCloseCode, web
import aiohttp_jinja2
import jinja2
from textual_serve.app_service import AppService
from textual_serve.server import Server as TextualServer

from ..errors import JuxError
from ..server.client import ask
from ..server.connection import log

CODE = re.compile(r"[A-Za-z0-9_-]{1,200}")  # (the protocol's codes: secrets.token_urlsafe)
MAX_SESSIONS = 64  # browser tabs playing at once (each is a process running the terminal UI)
STDERR_KEPT = 64 * 1024  # bytes of a process's stderr kept for its one line in the log
BLOT = "<code>"
QUIT_TIME = 5.0  # seconds a tab's process has to end after its output did, before it is killed


def loopback(host: str, port: int, scheme: str = "ws") -> str:
    """The game server's address as the web part reaches it: loopback when it listens on every address."""
    if host in ("", "0.0.0.0", "127.0.0.1", "localhost"):
        host = "127.0.0.1"
    elif host in ("::", "::1"):
        host = "[::1]"
    elif ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}:{port}"


def join_command(game_url: str) -> str:
    """The command each tab runs (a shell line: textual-serve starts it with the shell); no code in it."""
    return f"exec {shlex.quote(sys.executable)} -m jux.interpreter.cli.main join --server {shlex.quote(game_url)}"


def page(title: str, text: str, status: int) -> web.Response:
    body = (f"<!DOCTYPE html><html><head><meta charset='utf-8'><meta name='referrer' content='no-referrer'>"
            f"<title>jux: {html.escape(title)}</title></head>"
            f"<body style='background:#0c181f;color:#eee;font-family:monospace;padding:2em'>"
            f"<h1>{html.escape(title)}</h1><p>{html.escape(text)}</p></body></html>")
    return web.Response(text=body, status=status, content_type="text/html")


class _BlottedStderr:
    """A process's stderr as textual-serve reads it: nothing, until its end, then one line in the
    log (its last line, the code blotted out)."""

    def __init__(self, stream, code: str):
        self.stream, self.code = stream, code

    async def read(self, n: int = -1) -> bytes:
        kept = b""
        while chunk := await self.stream.read(4096):
            kept = (kept + chunk)[-STDERR_KEPT:]
        text = kept.decode("utf-8", "replace").replace(self.code, BLOT)
        last = next((line.strip() for line in reversed(text.splitlines()) if line.strip()), "")
        if last:
            log(f"web: a page's jux join said: {last[:300]}")
        return b""


class Session(AppService):
    """One tab: `jux join` with the code in its environment; the tab is closed when it ends."""

    def __init__(self, code: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.code = code

    def _build_environment(self, width: int = 80, height: int = 24) -> dict:
        env = super()._build_environment(width, height)
        env["JUX_CODE"] = self.code
        return env

    async def _open_app_process(self, width: int = 80, height: int = 24):
        process = await super()._open_app_process(width, height)
        process.stderr = _BlottedStderr(process.stderr, self.code)
        return process

    async def run(self) -> None:
        await super().run()
        try:  # (its output is over: the process is waited for, so none outlives the server)
            await asyncio.wait_for(self._process.wait(), QUIT_TIME)
        except asyncio.TimeoutError:
            self._process.kill()
            await self._process.wait()
        await self.remote_close()  # (the page says "Session ended")


class WebServer(TextualServer):
    """textual-serve's server with jux's routes: the code in the address, checked before the page."""

    def __init__(self, game_url: str, host: str, port: int):
        super().__init__(join_command(game_url), host=host, port=port, title="jux")
        self.game_url = game_url
        self.pages: set = set()  # (the open tabs' websockets)

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get("/", self.handle_home),
            web.get("/join/{code}", self.handle_index, name="index"),
            web.get("/join/{code}/", self.handle_index),
            web.get("/ws/{code}", self.handle_websocket, name="websocket"),
            web.static("/static", self.statics_path, name="static"),
        ])
        app.on_shutdown.append(self.close_pages)
        return app

    async def close_pages(self, _app) -> None:
        """On the way out, each tab is told at once (its process is then asked to quit)."""
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY) for ws in list(self.pages)),
                             return_exceptions=True)

    async def handle_home(self, request: web.Request) -> web.Response:
        return page("a jux table", "Open this address with a seat's invitation code (or the table's spectator "
                                   "code, to watch) after /join/ (jux host prints the codes): "
                                   "http://HOST:PORT/join/CODE", 200)

    async def handle_index(self, request: web.Request) -> web.Response:
        code = request.match_info["code"]
        if not CODE.fullmatch(code):
            return page("not an invitation code", "This address does not hold an invitation code (letters, "
                                                  "digits, - and _): ask the table's host for yours.", 404)
        try:
            welcome = await ask(self.game_url, "hello", "welcome", code=code)
        except JuxError as e:
            why = str(e).removeprefix(f"{self.game_url}: ")
            if why.startswith("bad_code: "):
                return page("this code opens no table", f"The game server says: {why.removeprefix('bad_code: ')}. "
                                                        "Ask the table's host for your seat's invitation code.", 404)
            return page("the game server cannot be reached", f"{why}; try again later.", 503)
        names = welcome.get("names") or []
        seat = welcome.get("seat")
        if seat is None:  # the spectator code: the game read-only
            who = "watching"
        else:
            who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else (
                f"seat {seat + 1}" if isinstance(seat, int) else "a seat")
        origin = f"{request.scheme}://{request.host}"
        context = {
            "font_size": 16,
            "app_websocket_url": f"{'wss' if request.scheme == 'https' else 'ws'}://{request.host}/ws/{code}",
            "config": {"static": {"url": f"{origin}/static/"}},
            "application": {"name": f"jux: {welcome.get('ruleset')}, {who}"},
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Referrer-Policy"] = "no-referrer"  # (the address holds the code)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        code = request.match_info["code"]
        if not CODE.fullmatch(code):
            raise web.HTTPNotFound(text="not an invitation code")
        if len(self.pages) >= MAX_SESSIONS:
            raise web.HTTPServiceUnavailable(text=f"this server plays {MAX_SESSIONS} web pages at once already")
        websocket = web.WebSocketResponse(heartbeat=15)
        width = _int(request.query.get("width"), 80)
        height = _int(request.query.get("height"), 24)
        self.pages.add(websocket)
        session = None
        try:
            await websocket.prepare(request)
            session = Session(code, self.command, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                              close=websocket.close, download_manager=self.download_manager)
            await session.start(width, height)
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception as e:  # (one line; the other pages go on)
            log(f"web: a page failed: {type(e).__name__}: {str(e).replace(code, BLOT)}")
        finally:
            self.pages.discard(websocket)
            if session is not None:
                await session.stop()
        return websocket


def _int(text, default: int) -> int:
    try:
        return max(10, min(int(text), 1000))
    except (TypeError, ValueError):
        return default


def _quiet_loggers() -> None:
    """textual-serve's and aiohttp's loggers: one line each, never a traceback nor an address."""
    class OneLine(logging.Formatter):
        def format(self, record):
            return f"jux serve: web: {record.getMessage()}".replace("\n", " ")

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(OneLine())
    for name in ("textual-serve", "aiohttp.server", "aiohttp.web"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.propagate = False
        logger.setLevel(logging.WARNING)


async def start_web(game_url: str, host: str, port: int):
    """Serve the web page; (its runner, to clean up, and the port it listens on)."""
    _quiet_loggers()
    runner = web.AppRunner(await WebServer(game_url, host, port)._make_app(), access_log=None,
                           handle_signals=False)
    await runner.setup()
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError:
        await runner.cleanup()
        raise
    return runner, runner.addresses[0][1]


async def serve_web(game: asyncio.Task, bound: asyncio.Future, game_host: str, web_host: str, web_port: int,
                    scheme: str = "ws") -> None:
    """Serve the web page beside the game server (the task `game`) once it listens (`bound`: its port),
    until it stops."""
    done, _ = await asyncio.wait([bound, game], return_when=asyncio.FIRST_COMPLETED)
    if game in done:
        game.result()
        return
    try:
        runner, port = await start_web(loopback(game_host, bound.result(), scheme), web_host, web_port)
    except OSError as e:
        game.cancel()
        await asyncio.gather(game, return_exceptions=True)
        raise JuxError(f"serve: cannot listen on {web_host}:{web_port} for the web page: {e.strerror or e}") from None
    log(f"web page on http://{web_host}:{port}/join/CODE (CODE: a seat's invitation code or the spectator code)")
    try:
        await game
    finally:
        await runner.cleanup()
