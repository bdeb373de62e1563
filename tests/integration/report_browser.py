"""Load a loadgen HTML report in headless Chromium, offline, and read what it drew.

The page writes a JSON summary into <pre id="lg-status"> when it has drawn (charts with
their dataset and point counts and painted pixels, errors caught, resources fetched,
verdicts); --dump-dom shows it. A second run takes a screenshot. The browser gets a
fresh profile, no proxy that works (127.0.0.1:9) and every background service off, so
any request the page made would fail and show up as a console error or a resource."""
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP = 77


def chromium():
    """The browser binary, or exit 77 (SKIP) when it is not installed."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    print("SKIP: chromium is not installed (apt-get install chromium)")
    sys.exit(SKIP)


def _args(profile):
    return [chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--disable-extensions",
            "--user-data-dir=" + profile, "--proxy-server=127.0.0.1:9",
            "--proxy-bypass-list=<-loopback>", "--hide-scrollbars",
            "--enable-logging=stderr", "--v=0", "--virtual-time-budget=10000"]


class Page:
    """What the browser saw: the DOM after drawing, the status summary, console lines."""

    def __init__(self, dom, stderr):
        self.dom = dom
        self.text = html.unescape(re.sub(r"<[^>]+>", " ", dom))
        m = re.search(r'<pre id="lg-status"[^>]*>(.*?)</pre>', dom, re.S)
        self.status = json.loads(html.unescape(m.group(1))) if m else None
        # Chromium prints the page's console messages as CONSOLE(line) lines
        self.console = [l for l in stderr.splitlines() if "CONSOLE" in l]
        self.stderr = stderr

    def charts(self):
        return {c["id"]: c for c in self.status["charts"]}

    def figures(self):
        """Each chart figure's id and its HTML (to check it has a table)."""
        out = {}
        for m in re.finditer(r'<figure id="([^"]+)"(.*?)</figure>', self.dom, re.S):
            out[m.group(1)] = m.group(2)
        return out


def load(path, screenshot=None, width=1280, height=3000, sized=False):
    """Open the report at path; returns a Page. With screenshot, also save a PNG. With
    sized, the DOM is read in a window of width x height too (layout checks), not in
    headless Chromium's default 800 x 600."""
    url = "file://" + os.path.abspath(path)
    profile = tempfile.mkdtemp(prefix="lgchrome.")
    size = ["--window-size=%d,%d" % (width, height)] if sized else []
    try:
        proc = subprocess.run(_args(profile) + size + ["--dump-dom", url], capture_output=True,
                              text=True, timeout=180)
        page = Page(proc.stdout, proc.stderr)
        if screenshot:
            shutil.rmtree(profile, ignore_errors=True)
            profile = tempfile.mkdtemp(prefix="lgchrome.")
            subprocess.run(_args(profile) + ["--window-size=%d,%d" % (width, height),
                                             "--screenshot=" + os.path.abspath(screenshot),
                                             url],
                           capture_output=True, text=True, timeout=180)
        return page
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def shots_dir():
    """Where screenshots go: $LG_REPORT_SHOTS, or the directory the test runs in (the
    build's tests directory under CTest), next to the test's output."""
    d = os.environ.get("LG_REPORT_SHOTS") or os.getcwd()
    os.makedirs(d, exist_ok=True)
    return d


def static_offline(html_text):
    """Problems that would make the page fetch something: external src/href
    attributes, or a missing Content-Security-Policy."""
    problems = []
    for m in re.finditer(r"<(script|link|img|iframe|embed|object|source)\b[^>]*\b(src|href)=",
                         html_text, re.I):
        problems.append(m.group(0))
    if 'http-equiv="Content-Security-Policy"' not in html_text:
        problems.append("no Content-Security-Policy")
    return problems
