"""pywalletconnect (a wallet-side WalletConnect v2 implementation from PyPI) pairs through Sandnet's relay with
Sandnet's dApp emulator (`sandnet walletconnect propose`) and answers a personal_sign and an eth_sendTransaction.

pywalletconnect insists on TLS (it asserts an https relay URL and wraps its socket with `ssl`); until the node serves
TLS, the test gives it a plain TCP socket with the same interface (its `TLSsocket` class), so the WebSocket framing,
the JWT, the envelopes (base64 without padding) and the Sign API messages are all pywalletconnect's own.
"""
import socket
import subprocess
import time

import pytest
from web3 import Web3

from conftest import sandnet_binary

pywalletconnect = pytest.importorskip("pywalletconnect")
from pywalletconnect import websocket as wc_websocket  # noqa: E402
from pywalletconnect.client import WCClient  # noqa: E402
from pywalletconnect.client_v2irn import WCv2Client  # noqa: E402


class PlainSocket:
    """pywalletconnect's TLSsocket interface over plain TCP (non-blocking reads, b"" when nothing arrived)."""

    def __init__(self, domain, port):
        self.conn = socket.create_connection((domain, port))
        self.conn.setblocking(False)

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def send(self, data):
        self.conn.setblocking(True)
        self.conn.sendall(data)
        self.conn.setblocking(False)

    def receive(self):
        try:
            data = self.conn.recv(65536)
        except BlockingIOError:
            return b""
        if data == b"":
            self.close()
        return data


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_pywalletconnect_wallet_answers_the_dapp_emulator(node_factory, monkeypatch):
    relay_port = free_port()
    node = node_factory("--relay-port", str(relay_port))
    w3 = Web3(Web3.HTTPProvider(node.url))
    account = w3.eth.accounts[0]
    dapp = subprocess.Popen(
        [sandnet_binary(), "walletconnect", "propose", "--rpc-url", node.url, "--send-transaction"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        uri = dapp.stdout.readline().strip()
        assert uri.startswith("wc:"), dapp.stderr.read()

        monkeypatch.setattr(wc_websocket, "TLSsocket", PlainSocket)
        monkeypatch.setattr(WCv2Client, "host_relay", f"127.0.0.1:{relay_port}")
        WCClient.set_project_id("sandnet-interop")
        wallet = WCClient.from_wc_uri(uri)
        request_id, chain_ids, dapp_meta = wallet.open_session()
        assert chain_ids == ["11155111"]
        assert dapp_meta["name"] == "Sandnet dApp emulator"
        wallet.reply_session_request(request_id, 11155111, account)

        answered = []
        deadline = time.monotonic() + 60  # a hang guard only
        while len(answered) < 2 and time.monotonic() < deadline:
            msg_id, method, params = wallet.get_message()
            if msg_id is None:
                time.sleep(0.05)
                continue
            if method == "wc_sessionRequest":
                call = params["request"]
                if call["method"] == "personal_sign":
                    result = w3.provider.make_request("personal_sign", call["params"])["result"]
                else:
                    assert call["method"] == "eth_sendTransaction"
                    result = w3.eth.send_transaction(call["params"][0]).to_0x_hex()
                wallet.reply(msg_id, result)
                answered.append(call["method"])
        assert answered == ["personal_sign", "eth_sendTransaction"]
        out, err = dapp.communicate(timeout=60)
        assert dapp.returncode == 0, err
        lines = out.splitlines()
        assert any(line.startswith("personal_sign 0x") and account.lower() in line for line in lines), out
        assert any(line.startswith("eth_sendTransaction 0x") and line.endswith("status 0x1") for line in lines), out
        wallet.close()
    finally:
        dapp.kill()
