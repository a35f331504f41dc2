"""What the inspector's browser tests (test_inspector.py) and its benchmark
(benchmarks/inspector_bench.py) share: the real `smrun serve` on a temporary store, a second
client's requests, and headless Chromium under Selenium."""

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SMRUN = os.environ.get("SMRUN", os.path.join(ROOT, ".build", "debug", "smrun"))


class Server:
    """`smrun serve` on a free loopback port and a store in a temporary directory."""

    def __init__(self, machines, *arguments, environment=None):
        self.directory = tempfile.mkdtemp(prefix="inspector-")
        store = os.path.join(self.directory, "store.sqlite")
        self.process = subprocess.Popen(
            [SMRUN, "serve", *machines, "--store", store, "--listen", "127.0.0.1:0", *arguments],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment)
        self.errors = []
        deadline = time.monotonic() + 60
        self.port = None
        while self.port is None and time.monotonic() < deadline:
            line = self.process.stderr.readline()
            if not line:
                break
            self.errors.append(line)
            found = re.search(r"listening on http://[^ ]*:(\d+)", line)
            if found:
                self.port = int(found.group(1))
        if self.port is None:
            self.stop()
            raise RuntimeError("smrun serve did not start: " + "".join(self.errors))
        threading.Thread(target=lambda: self.errors.extend(self.process.stderr), daemon=True).start()
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.directory, ignore_errors=True)

    def call(self, method, path, body=None, token=None):
        """A request as a second client makes it: the answer's status and JSON."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token:
            request.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,1000"]:
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"))
    driver.implicitly_wait(0)
    return driver
