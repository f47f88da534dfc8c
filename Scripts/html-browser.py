#!/usr/bin/env python3
"""Open CellKit HTML pages in headless Chromium and measure them as the browser laid them out.

Drives one `chromium --headless --remote-debugging-pipe` over the DevTools protocol (no network
port): for each job, a viewport width, the light or dark colour scheme (`prefers-color-scheme`
emulated), the page loaded from its file, then Scripts/html-measure.js evaluated in it (the page
itself has no script) and, if asked, a full-page screenshot.

    python3 Scripts/html-browser.py [--chromium PATH] [--without-emoji-font] < jobs.json > reports.json

--without-emoji-font starts Chromium with a fontconfig that rejects every colour emoji font, so
that pages are measured as on a machine without one (the glyphs then come from text fonts).

jobs.json: [{"page": "/abs/page.html", "width": 390, "dark": false, "media": "print",
"scale": 2, "screenshot": "/abs/out.png", "axe": "/abs/axe.min.js", "script": "/abs/x.js"}] (all but
page and width optional): media emulates a CSS media type; script is evaluated instead of
html-measure.js (its value, a JSON string, is the report); scale is the device pixel ratio (a 200 % zoom is half
the width at scale 2); axe runs axe-core from that file in the page after measuring it and adds
its violations to the report as "axe" ([{id, impact, help, nodes: [selector and summary]}]).
Prints one JSON report per job, in order (see html-measure.js). Exits 2 with a message when
Chromium cannot be started or a page cannot be measured within the deadline.
"""

import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

DEADLINE = 180  # seconds for all jobs


FONTS_WITHOUT_EMOJI = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <selectfont><rejectfont><pattern><patelt name="color"><bool>true</bool></patelt></pattern></rejectfont>
  <rejectfont><glob>*Emoji*</glob></rejectfont></selectfont>
</fontconfig>
"""


class Browser:
    def __init__(self, chromium, without_emoji_font=False):
        self.profile = tempfile.mkdtemp(prefix="cellkit-chromium-")
        environment = dict(os.environ)
        if without_emoji_font:
            fonts = os.path.join(self.profile, "fonts.conf")
            with open(fonts, "w", encoding="utf-8") as f:
                f.write(FONTS_WITHOUT_EMOJI)
            environment["FONTCONFIG_FILE"] = fonts
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds():  # the child's 3 and 4: what the DevTools pipe reads and writes
            os.dup2(to_chrome_r, 3)
            os.dup2(from_chrome_w, 4)
            os.setsid()

        self.process = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--mute-audio",
             "--hide-scrollbars", "--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=fds, pass_fds=(3, 4), env=environment)  # kept past preexec_fn's dup2
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buffer = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.to_chrome, json.dumps(message).encode() + b"\0")
        while True:
            reply = self.receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error'].get('message')}")
                return reply.get("result", {})
            self.events.append(reply)

    def receive(self):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise RuntimeError("Chromium did not answer within the deadline")
            chunk = os.read(self.from_chrome, 1 << 16)
            if not chunk:
                raise RuntimeError("Chromium closed the DevTools pipe (did it start?)")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def wait_event(self, method, session):
        while True:
            for i, event in enumerate(self.events):
                if event.get("method") == method and event.get("sessionId") == session:
                    del self.events[i]
                    return event
            self.events.append(self.receive())

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, 9)
            self.process.wait()
        shutil.rmtree(self.profile, ignore_errors=True)


def run(browser, job, script):
    target = browser.send("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = browser.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    browser.send("Page.enable", session=session)
    browser.send("Emulation.setDeviceMetricsOverride",
                 {"width": job["width"], "height": 800, "deviceScaleFactor": job.get("scale", 1), "mobile": False},
                 session)
    scheme = "dark" if job.get("dark") else "light"
    browser.send("Emulation.setEmulatedMedia",
                 {"media": job.get("media", ""),
                  "features": [{"name": "prefers-color-scheme", "value": scheme}]}, session)
    browser.send("Page.navigate", {"url": "file://" + job["page"]}, session)
    browser.wait_event("Page.loadEventFired", session)
    if job.get("script"):
        with open(job["script"], encoding="utf-8") as f:
            script = f.read()
    result = browser.send("Runtime.evaluate", {"expression": script, "returnByValue": True, "awaitPromise": True},
                          session)
    if "exceptionDetails" in result:
        raise RuntimeError("the measuring script failed: " + json.dumps(result["exceptionDetails"])[:500])
    report = json.loads(result["result"]["value"])
    if job.get("axe"):
        report["axe"] = axe(browser, session, job["axe"])
    if job.get("screenshot"):
        size = browser.send("Page.getLayoutMetrics", session=session)["cssContentSize"]
        shot = browser.send("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": job["width"], "height": size["height"], "scale": 1}}, session)
        with open(job["screenshot"], "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    browser.send("Target.closeTarget", {"targetId": target})
    return report


AXE_RUN = """axe.run(document, {resultTypes: ["violations"]}).then((r) => JSON.stringify(r.violations.map((v) => ({
  id: v.id, impact: v.impact, help: v.help,
  nodes: v.nodes.map((n) => n.target.join(" ") + ": " + (n.failureSummary || "").replace(/\\s+/g, " ").slice(0, 300))}))))"""


def axe(browser, session, path):
    """axe-core's violations on the page in `session`, loaded from the file at `path`."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    loaded = browser.send("Runtime.evaluate", {"expression": source}, session)
    if "exceptionDetails" in loaded:
        raise RuntimeError("axe-core did not load: " + json.dumps(loaded["exceptionDetails"])[:500])
    result = browser.send("Runtime.evaluate", {"expression": AXE_RUN, "awaitPromise": True, "returnByValue": True},
                          session)
    if "exceptionDetails" in result:
        raise RuntimeError("axe-core failed: " + json.dumps(result["exceptionDetails"])[:500])
    return json.loads(result["result"]["value"])


def main():
    global deadline
    chromium, without_emoji_font = None, False
    arguments = sys.argv[1:]
    while arguments:
        if arguments[0] == "--chromium" and len(arguments) > 1:
            chromium, arguments = arguments[1], arguments[2:]
        elif arguments[0] == "--without-emoji-font":
            without_emoji_font, arguments = True, arguments[1:]
        else:
            sys.exit("html-browser: unknown argument " + arguments[0])
    chromium = chromium or shutil.which("chromium") or shutil.which("chromium-browser")
    if not chromium:
        sys.exit("html-browser: no chromium on PATH (apt-get install chromium)")
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "html-measure.js"), encoding="utf-8") as f:
        script = f.read()
    jobs = json.load(sys.stdin)
    deadline = time.monotonic() + DEADLINE
    browser = Browser(chromium, without_emoji_font)
    try:
        reports = [run(browser, job, script) for job in jobs]
    except Exception as error:  # a clear line, exit 2: the test reports it
        print(f"html-browser: {error}", file=sys.stderr)
        sys.exit(2)
    finally:
        browser.close()
    json.dump(reports, sys.stdout)


deadline = 0.0
if __name__ == "__main__":
    main()
