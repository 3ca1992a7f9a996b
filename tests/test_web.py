"""`jux serve --web` (issue 29): a player without jux joins a table from a browser.

A real `jux serve --web` is started on loopback free ports; a table of Capital Jux (one human seat,
one random bot) is made with the protocol; headless Chromium (selenium, the Debian packages
chromium and chromium-driver) opens http://HOST:PORT/join/CODE, the terminal UI appears in the
page, the seat's first decision is answered from the keyboard, and the answer is in the server's
store as the seat's (and the table's answers grew). Addresses without a seat's valid code are a
page that says why. The code is never in what the server writes.

A machine without Chromium skips, except where CI or JUX_REQUIRE_BROWSER is set: there it fails
(.ci/run installs the packages and sets JUX_REQUIRE_BROWSER=1)."""
from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request

import pytest

from server_helpers import Raw, create

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-3d-apis",  # (no WebGL: the terminal draws its rows in the page, where they can be read)
         "--window-size=1400,900"]


def need_browser():
    missing = [p for p in (CHROMIUM, CHROMEDRIVER) if not shutil.which(p)]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("selenium (pip, the test extra)")
    if missing:
        why = f"no browser to drive: {', '.join(missing)} missing (apt-get install chromium chromium-driver)"
        if os.environ.get("CI") or os.environ.get("JUX_REQUIRE_BROWSER"):
            pytest.fail(why)
        pytest.skip(why)


class Serving:
    """`jux serve --web` in a process of its own; every line it writes is kept."""

    def __init__(self, folder):
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "jux.interpreter.cli.main", "serve", "--port", "0", "--web", "--web-port", "0",
             "--data", str(folder), "--sync", "normal"],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        self.lines: list = []
        self.game = self.web = None
        self.killed = False
        ready = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.lines.append(line)
                if m := re.search(r"listening on (ws://\S+:\d+)", line):
                    self.game = m.group(1)
                if m := re.search(r"web page on (http://\S+:\d+)/join/CODE", line):
                    self.web = m.group(1)
                    ready.set()
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        ready.wait(30)
        assert self.game and self.web, "".join(self.lines)

    def stop(self) -> str:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.killed = True
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(5)
        time.sleep(0.2)
        return "".join(self.lines)


def fetch(url) -> tuple:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def listing(url, table_id) -> dict:
    async def ask():
        raw = await Raw.open(url)
        reply = await raw.request("tables", "tables")
        await raw.close()
        return reply
    return next(t for t in asyncio.run(ask())["tables"] if t["table"] == table_id)


def screen(driver) -> str:
    """The terminal's rows as text (the page draws them as elements: no WebGL)."""
    text = driver.execute_script(
        "return Array.from(document.querySelectorAll('.xterm-rows > div')).map(e => e.textContent).join('\\n')")
    return (text or "").replace("\xa0", " ")


def wait_for(driver, words, seconds=40) -> str:
    end = time.monotonic() + seconds
    text = ""
    while time.monotonic() < end:
        text = screen(driver)
        if all(w in text for w in words):
            return text
        time.sleep(0.2)
    raise AssertionError(f"the page never showed {words}; it shows:\n{text}")


@pytest.fixture
def driver(tmp_path):
    need_browser()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS + [f"--user-data-dir={tmp_path / 'chromium'}"]:
        options.add_argument(flag)
    d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    d.set_page_load_timeout(30)
    try:
        yield d
    finally:
        d.quit()


def test_a_browser_plays_a_seat(tmp_path, driver):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    server = Serving(tmp_path / "data")
    try:
        created = asyncio.run(create(server.game, "capital_jux", ["human", "random"]))
        code, table = created["codes"]["0"], created["table"]

        # addresses without a seat's valid code: a page that says why
        assert fetch(server.web + "/")[0] == 200 and "/join/CODE" in fetch(server.web + "/")[1]
        status, body = fetch(server.web + "/join/" + "x" * 32)
        assert status == 404 and "this code opens no table" in body and "no table has this code" in body
        status, body = fetch(server.web + "/join/not%20a%20code")
        assert status == 404 and "not an invitation code" in body
        status, body = fetch(server.web + "/join/" + created["spectate"])
        assert status == 200 and "jux: capital_jux, watching" in body  # (the spectator code: the game read-only)
        driver.get(server.web + "/join/" + "y" * 32)
        assert "this code opens no table" in driver.find_element(By.TAG_NAME, "body").text

        # the seat's code: the terminal UI, its first decision answered from the keyboard
        driver.get(server.web + "/join/" + code)
        text = wait_for(driver, ["you are Player 1", "Choose 2 cards to keep", "1. [ ]", "2. [ ]"])
        assert "Player 2" in text
        before = listing(server.game, table)["answers"]
        keys = driver.find_element(By.CSS_SELECTOR, ".xterm-helper-textarea")
        keys.send_keys("1")
        keys.send_keys("2")
        wait_for(driver, ["1. [x]", "2. [x]", "(2 chosen)"])
        driver.save_screenshot(str(tmp_path / "web-table.png"))
        assert (tmp_path / "web-table.png").stat().st_size > 10_000
        keys.send_keys(Keys.ENTER)

        db = sqlite3.connect(f"file:{tmp_path / 'data' / 'jux.sqlite'}?mode=ro", uri=True)
        end, mine = time.monotonic() + 30, []
        while not mine and time.monotonic() < end:
            mine = db.execute("SELECT answer, seq FROM answers WHERE table_id = ? AND seat = 0 AND seq IS NOT NULL",
                              (table,)).fetchall()
            time.sleep(0.2)
        db.close()
        # the seat's first answer: two cards, the first shown first (a card shown twice, "(x2)", is one line)
        assert len(mine) == 1 and mine[0][1] == 1, mine
        answer = json.loads(mine[0][0])
        assert len(answer) == 2 and answer[0] == 0 and answer[1] > 0, mine
        assert listing(server.game, table)["answers"] > before
        wait_for(driver, ["(0 chosen)"])  # (the next decision: the UI took the answer and went on)

        # the spectator code in another tab: the same table, read-only, no card of the seat's hand
        driver.switch_to.new_window("tab")
        driver.get(server.web + "/join/" + created["spectate"])
        text = wait_for(driver, ["You are watching", "Player 1", "Player 2"])
        assert "Choose 2 cards" not in text and "1. [ ]" not in text
        driver.close()
        driver.switch_to.window(driver.window_handles[0])
    finally:
        out = server.stop()
    # stopped by Ctrl-C with the tab open: the server tells the tab, and stops by itself
    assert server.proc.returncode == 130 and not server.killed, out
    end = time.monotonic() + 10
    while "-closed" not in driver.find_element(By.TAG_NAME, "body").get_attribute("class") and time.monotonic() < end:
        time.sleep(0.2)
    assert "Session ended" in driver.find_element(By.TAG_NAME, "body").text
    assert code not in out, out
    assert "Traceback" not in out, out


def test_what_a_page_process_writes_is_one_line_without_its_code(capsys):
    from jux.interpreter.cli.web import _BlottedStderr

    code = "Sd8ufVbE1z2QxkLRb7Tq0m9cPEe4Hn_-"

    async def read():
        stream = asyncio.StreamReader()
        stream.feed_data(f"Traceback (most recent call last):\n  code = '{code}'\n".encode() * 2000)
        stream.feed_data(f"RuntimeError: lost {code}\n".encode())
        stream.feed_eof()
        return await _BlottedStderr(stream, code).read(4096)

    assert asyncio.run(read()) == b""  # (textual-serve itself writes nothing of it)
    err = capsys.readouterr().err
    assert err == "jux serve: web: a page's jux join said: RuntimeError: lost <code>\n"


def test_join_needs_a_code_and_serve_web_refuses_tls(run, monkeypatch):
    monkeypatch.delenv("JUX_CODE", raising=False)
    r = run("join", "--server", "ws://127.0.0.1:9")
    assert r.returncode == 1 and "give the seat's invitation code (CODE, or the environment variable JUX_CODE)" in r.stderr
    monkeypatch.setenv("JUX_CODE", "abc")
    r = run("join", "--server", "ws://127.0.0.1:9")  # (the code from the environment: asked of the server)
    assert r.returncode == 1 and "cannot talk to the server" in r.stderr
    r = run("serve", "--web", "--certfile", "a.pem", "--keyfile", "b.pem")
    assert r.returncode == 1 and "--web serves plain http" in r.stderr


def test_a_web_port_in_use_is_one_line(run, tmp_path):
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        r = run("serve", "--port", "0", "--web", "--web-port", port, "--data", tmp_path / "data")
    assert r.returncode == 1 and f"cannot listen on 127.0.0.1:{port} for the web page" in r.stderr
