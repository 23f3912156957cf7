"""Starts a real `sandnet node` (the built binary) on a free port of 127.0.0.1 for the interop tests."""
import json
import os
import subprocess
import tempfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sandnet_binary():
    if os.environ.get("SANDNET_BINARY"):
        return os.environ["SANDNET_BINARY"]
    for config in ("debug", "release"):
        path = os.path.join(ROOT, ".build", config, "sandnet")
        if os.path.exists(path):
            return path
    raise RuntimeError("build sandnet first (swift build)")


class Node:
    def __init__(self, *args):
        self.data_dir = tempfile.mkdtemp(prefix="sandnet-interop-")
        self.args = args
        self.start()

    def start(self):
        # A still chain unless a test asks for a living one (it counts blocks and balances to the wei).
        still = [] if any(a.startswith(("--fee-profile", "--empty-block-interval")) for a in self.args) else ["--no-ambient"]
        self.proc = subprocess.Popen(
            [sandnet_binary(), "node", "--port", "0", "--json-log", "--data-dir", self.data_dir, *still, *self.args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("node did not start: " + self.proc.stderr.read())
        self.info = json.loads(line)
        self.url = self.info["rpcUrl"]
        self.ws_url = self.info["wsUrl"]

    def stop(self, sig=None):
        if sig is None:
            self.proc.terminate()
        else:
            self.proc.send_signal(sig)
        self.proc.wait(timeout=30)


@pytest.fixture
def node():
    n = Node()
    yield n
    n.stop()


@pytest.fixture
def node_factory():
    nodes = []

    def make(*args):
        n = Node(*args)
        nodes.append(n)
        return n

    yield make
    for n in nodes:
        if n.proc.poll() is None:
            n.stop()


def pytest_collection_modifyitems(items):
    """web3.py's module-testing suite: skip by name what needs an EVM (lists in web3_suite.py)."""
    from web3_suite import mark_items

    mark_items([item for item in items if item.module.__name__.startswith("test_web3_suite_")])
