"""web3.py (PyPI, pinned) against a running `sandnet node`: transfers signed with eth-account, receipts,
balances to the wei (burned base fee and coinbase tip), fee history, filters, a WebSocket newHeads
subscription, geth's error texts, batches, and restart/kill -9 persistence."""
import asyncio
import json
import signal
import urllib.request

import pytest
import websockets
from eth_account import Account
from web3 import Web3

KEY0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
KEY1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
RECIPIENT = "0x000000000000000000000000000000000000dEaD"
CHAIN_ID = 11155111


def w3_for(node):
    return Web3(Web3.HTTPProvider(node.url, request_kwargs={"timeout": 120}))


def raw(signed):
    return getattr(signed, "raw_transaction", None) or signed.rawTransaction


def rpc(node, payload):
    req = urllib.request.Request(node.url, data=json.dumps(payload).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.loads(r.read() or b"null")


def test_identity(node):
    w3 = w3_for(node)
    assert w3.is_connected()
    assert w3.eth.chain_id == CHAIN_ID
    assert w3.net.version == "11155111"
    assert w3.eth.accounts[0] == "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
    assert w3.eth.get_balance(w3.eth.accounts[0]) == 10_000 * 10**18


def test_eip1559_transfer_balances_to_the_wei(node):
    w3 = w3_for(node)
    acct = Account.from_key(KEY0)
    coinbase = w3.eth.get_block("latest")["miner"]
    before_sender = w3.eth.get_balance(acct.address)
    before_recipient = w3.eth.get_balance(RECIPIENT)
    before_coinbase = w3.eth.get_balance(coinbase)
    base = w3.eth.get_block("pending")["baseFeePerGas"]
    tip = w3.eth.max_priority_fee
    tx = {"type": 2, "chainId": CHAIN_ID, "nonce": w3.eth.get_transaction_count(acct.address, "pending"),
          "to": RECIPIENT, "value": 10**17, "gas": 21000, "maxFeePerGas": 2 * base + tip, "maxPriorityFeePerGas": tip}
    tx_hash = w3.eth.send_raw_transaction(raw(acct.sign_transaction(tx)))
    receipt = w3.eth.wait_for_transaction_receipt(tx_hash, timeout=120)
    assert receipt["status"] == 1 and receipt["gasUsed"] == 21000 and receipt["type"] == 2
    block = w3.eth.get_block(receipt["blockNumber"])
    price = receipt["effectiveGasPrice"]
    assert price == block["baseFeePerGas"] + min(tip, 2 * base + tip - block["baseFeePerGas"])
    assert w3.eth.get_balance(acct.address) == before_sender - 10**17 - 21000 * price
    assert w3.eth.get_balance(RECIPIENT) == before_recipient + 10**17
    assert w3.eth.get_balance(coinbase) == before_coinbase + 21000 * (price - block["baseFeePerGas"])
    fetched = w3.eth.get_transaction(tx_hash)
    assert fetched["from"] == acct.address and fetched["blockNumber"] == receipt["blockNumber"]


def test_legacy_transfer(node):
    w3 = w3_for(node)
    acct = Account.from_key(KEY1)
    gas_price = w3.eth.gas_price
    before = w3.eth.get_balance(acct.address)
    tx = {"chainId": CHAIN_ID, "nonce": 0, "to": RECIPIENT, "value": 12345, "gas": 21000, "gasPrice": gas_price}
    receipt = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(raw(acct.sign_transaction(tx))))
    assert receipt["type"] == 0 and receipt["effectiveGasPrice"] == gas_price
    assert w3.eth.get_balance(acct.address) == before - 12345 - 21000 * gas_price


def test_fee_history_and_filters(node):
    w3 = w3_for(node)
    acct = Account.from_key(KEY0)
    block_filter = w3.eth.filter("latest")
    for n in range(3):
        tx = {"type": 2, "chainId": CHAIN_ID, "nonce": n, "to": RECIPIENT, "value": 1, "gas": 21000,
              "maxFeePerGas": 10**10, "maxPriorityFeePerGas": (n + 1) * 10**9}
        w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(raw(acct.sign_transaction(tx))))
    history = w3.eth.fee_history(3, "latest", [25.0, 50.0, 75.0])
    assert history["oldestBlock"] == 1
    assert len(history["baseFeePerGas"]) == 4
    assert [r[1] for r in history["reward"]] == [10**9, 2 * 10**9, 3 * 10**9]
    changes = block_filter.get_new_entries()
    assert len(changes) == 3
    assert block_filter.get_new_entries() == []


def test_websocket_new_heads(node):
    async def scenario():
        async with websockets.connect(node.ws_url) as ws:
            await ws.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "eth_subscribe", "params": ["newHeads"]}))
            ack = json.loads(await ws.recv())
            sub = ack["result"]
            await asyncio.get_running_loop().run_in_executor(None, rpc, node, {"jsonrpc": "2.0", "id": 2, "method": "evm_mine"})
            note = json.loads(await asyncio.wait_for(ws.recv(), 120))
            assert note["params"]["subscription"] == sub
            assert note["params"]["result"]["number"] == "0x1"
    asyncio.run(scenario())


def expect_error(w3, signed, text):
    with pytest.raises(Exception) as info:
        w3.eth.send_raw_transaction(raw(signed))
    response = getattr(info.value, "rpc_response", None)
    error = response["error"] if response else info.value.args[0]
    message = error["message"] if isinstance(error, dict) else str(error)
    assert message.startswith(text), message
    if isinstance(error, dict):
        assert error["code"] == -32000


def test_geth_error_texts(node):
    w3 = w3_for(node)
    acct = Account.from_key(KEY0)
    base = {"type": 2, "chainId": CHAIN_ID, "to": RECIPIENT, "gas": 21000, "maxFeePerGas": 10**10,
            "maxPriorityFeePerGas": 10**9}
    w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(raw(acct.sign_transaction({**base, "nonce": 0, "value": 1}))))
    expect_error(w3, acct.sign_transaction({**base, "nonce": 0, "value": 2}), "nonce too low: next nonce 1, tx nonce 0")
    poor = Account.create()
    expect_error(w3, poor.sign_transaction({**base, "nonce": 0, "value": 1}), "insufficient funds for gas * price + value")
    expect_error(w3, acct.sign_transaction({**base, "nonce": 1, "value": 1, "chainId": 1}),
                 "invalid sender: invalid chain id for signer: have 1 want 11155111")
    rpc(node, {"jsonrpc": "2.0", "id": 1, "method": "evm_setAutomine", "params": [False]})
    w3.eth.send_raw_transaction(raw(acct.sign_transaction({**base, "nonce": 1, "value": 1})))
    expect_error(w3, acct.sign_transaction({**base, "nonce": 1, "value": 2}), "replacement transaction underpriced")
    bumped = {**base, "nonce": 1, "value": 3, "maxFeePerGas": 11 * 10**9, "maxPriorityFeePerGas": 11 * 10**8}
    w3.eth.send_raw_transaction(raw(acct.sign_transaction(bumped)))
    status = rpc(node, {"jsonrpc": "2.0", "id": 1, "method": "txpool_status"})["result"]
    assert status == {"pending": "0x1", "queued": "0x0"}


def test_batch(node):
    answers = rpc(node, [
        {"jsonrpc": "2.0", "id": 1, "method": "eth_chainId"},
        {"jsonrpc": "2.0", "id": "two", "method": "eth_blockNumber"},
        {"jsonrpc": "2.0", "id": 3, "method": "no_such_method"},
    ])
    by_id = {a["id"]: a for a in answers}
    assert by_id[1]["result"] == "0xaa36a7"
    assert by_id["two"]["result"] == "0x0"
    assert by_id[3]["error"]["code"] == -32601


def test_restart_and_kill_keep_state(node_factory):
    node = node_factory()
    w3 = w3_for(node)
    acct = Account.from_key(KEY0)
    tx = {"type": 2, "chainId": CHAIN_ID, "nonce": 0, "to": RECIPIENT, "value": 777, "gas": 21000,
          "maxFeePerGas": 10**10, "maxPriorityFeePerGas": 10**9}
    w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(raw(acct.sign_transaction(tx))))
    node.stop(signal.SIGINT)
    node.start()
    w3 = w3_for(node)
    assert w3.eth.block_number == 1
    assert w3.eth.get_balance(RECIPIENT) == 777
    assert w3.eth.get_transaction_count(acct.address) == 1
    w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(raw(acct.sign_transaction({**tx, "nonce": 1}))))
    node.stop(signal.SIGKILL)
    node.start()
    w3 = w3_for(node)
    assert w3.eth.block_number == 2
    assert w3.eth.get_balance(RECIPIENT) == 1554


def test_faucet_claim(node):
    w3 = w3_for(node)
    fresh = Account.create().address
    req = urllib.request.Request(node.url.rstrip("/") + "/api/claim", data=json.dumps({"address": fresh}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        msg = json.loads(r.read())["msg"]
    assert msg.startswith("Txhash: 0x")
    receipt = w3.eth.wait_for_transaction_receipt(msg[len("Txhash: "):])
    assert receipt["status"] == 1
    assert w3.eth.get_balance(fresh) == 10**18
