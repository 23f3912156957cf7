"""`sandnet node --tls` (issue 39) with real clients that check the certificate against the node's local CA:
web3.py over https://, a WebSocket subscription over wss://, ic-py over the IC HTTP interface, plain HTTP refused
with a clear answer, the CA reused across restarts, bad credentials refused at start."""
import asyncio
import json
import os
import ssl
import subprocess
import tempfile

import httpx
import pytest
import requests
import websockets
from web3 import Web3

from conftest import sandnet_binary

LEDGER = "ryjl3-tyaaa-aaaaa-aaaba-cai"


@pytest.fixture
def tls_dir():
    path = tempfile.mkdtemp(prefix="sandnet-tls-")
    yield os.path.join(path, "tls")


@pytest.fixture
def tls_node(node_factory, tls_dir):
    return node_factory("--tls", "--tls-dir", tls_dir)


def ca_file(node):
    return node.info["tls"]["caFile"]


def test_the_banner_names_the_ca_and_the_tls_urls(tls_node, tls_dir):
    assert tls_node.url.startswith("https://127.0.0.1:")
    assert tls_node.ws_url.startswith("wss://127.0.0.1:")
    assert ca_file(tls_node) == os.path.join(tls_dir, "ca.pem")
    assert tls_node.info["tls"]["certificateAction"] == "created"
    assert {"localhost", "127.0.0.1", "::1"} <= set(tls_node.info["tls"]["names"])
    assert oct(os.stat(os.path.join(tls_dir, "server-key.pem")).st_mode & 0o777) == "0o600"
    assert oct(os.stat(os.path.join(tls_dir, "ca-key.pem")).st_mode & 0o777) == "0o600"


def test_web3_over_https_sends_a_transaction(tls_node):
    w3 = Web3(Web3.HTTPProvider(tls_node.url, request_kwargs={"verify": ca_file(tls_node), "timeout": 60}))
    assert w3.eth.chain_id == 11155111
    sender, receiver = w3.eth.accounts[0], w3.eth.accounts[1]
    before = w3.eth.get_balance(receiver)
    tx = w3.eth.send_transaction({"from": sender, "to": receiver, "value": 12345})
    receipt = w3.eth.wait_for_transaction_receipt(tx, timeout=60)
    assert receipt["status"] == 1
    assert w3.eth.get_balance(receiver) == before + 12345


def test_localhost_name_verifies_too(tls_node):
    port = tls_node.url.rsplit(":", 1)[1]
    reply = requests.get(f"https://localhost:{port}/health", verify=ca_file(tls_node), timeout=60)
    assert reply.text == "ok"


def test_a_client_without_the_ca_refuses_the_certificate(tls_node):
    with pytest.raises(requests.exceptions.SSLError):
        requests.get(tls_node.url + "/health", timeout=60)


def test_plain_http_to_the_tls_port_gets_a_clear_answer(tls_node):
    plain = tls_node.url.replace("https://", "http://")
    reply = requests.post(plain, json={"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"}, timeout=60)
    assert reply.status_code == 400
    assert reply.text.startswith("This port speaks TLS: use https://")


def test_websocket_subscription_over_wss(tls_node):
    context = ssl.create_default_context(cafile=ca_file(tls_node))

    async def run():
        async with websockets.connect(tls_node.ws_url, ssl=context, open_timeout=60) as ws:
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_subscribe", "params": ["newHeads"]}))
            subscription = json.loads(await asyncio.wait_for(ws.recv(), 60))["result"]
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "evm_mine", "params": []}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if message.get("method") == "eth_subscription":
                    assert message["params"]["subscription"] == subscription
                    assert message["params"]["result"]["number"] == "0x1"
                    return

    asyncio.run(run())


def test_ic_py_over_https_with_ssl_cert_file(tls_node, monkeypatch):
    from ic.agent import Agent
    from ic.candid import Types, encode
    from ic.client import Client
    from ic.identity import Identity

    # ic-py calls httpx with its defaults, which read SSL_CERT_FILE: the way a Python client trusts the node's CA.
    monkeypatch.setenv("SSL_CERT_FILE", ca_file(tls_node))
    alice = Identity()
    claimed = httpx.post(tls_node.url + "/api/icp/claim", json={"account": alice.sender().to_str()}, timeout=60)
    assert claimed.status_code == 200, claimed.text
    account = Types.Record({"owner": Types.Principal, "subaccount": Types.Opt(Types.Vec(Types.Nat8))})
    arg = encode([{"type": account, "value": {"owner": alice.sender().to_str(), "subaccount": []}}])
    agent = Agent(alice, Client(url=tls_node.url))
    assert agent.query_raw(LEDGER, "icrc1_balance_of", arg, [Types.Nat])[0]["value"] == 100 * 10**8


def test_the_ca_is_reused_across_restarts(node_factory, tls_dir):
    first = node_factory("--tls", "--tls-dir", tls_dir)
    with open(ca_file(first)) as f:
        ca = f.read()
    first.stop()
    second = node_factory("--tls", "--tls-dir", tls_dir)
    assert second.info["tls"]["certificateAction"] == "reused"
    with open(ca_file(second)) as f:
        assert f.read() == ca
    assert requests.get(second.url + "/health", verify=ca_file(second), timeout=60).text == "ok"


def test_unusable_credentials_stop_the_node_with_path_and_reason(tmp_path, tls_dir, node_factory):
    # A key that is not the certificate's: the local CA's key with the server certificate.
    node = node_factory("--tls", "--tls-dir", tls_dir)
    node.stop()
    cert, wrong_key = os.path.join(tls_dir, "server.pem"), os.path.join(tls_dir, "ca-key.pem")
    garbage = tmp_path / "garbage.pem"
    garbage.write_text("hello")
    cases = [
        (["--tls-cert", cert, "--tls-key", wrong_key], f"{wrong_key}: this key does not belong to the certificate"),
        (["--tls-cert", str(garbage), "--tls-key", wrong_key], f"{garbage}: no CERTIFICATE block"),
        (["--tls-cert", str(tmp_path / "missing.pem"), "--tls-key", wrong_key], "missing.pem: no such file"),
    ]
    for flags, message in cases:
        result = subprocess.run(
            [sandnet_binary(), "node", "--in-memory", "--port", "0", "--tls", *flags],
            capture_output=True, text=True, timeout=120)
        assert result.returncode != 0
        assert message in result.stderr, result.stderr
