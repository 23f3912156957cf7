"""web3.py (PyPI, pinned), at its default settings, against a living `sandnet node`: its default retry recovers
from a provider's 429 with Retry-After, and its fee-history-based fees work on a fresh node with other users'
traffic (issue 20)."""
import json
import time

from eth_account import Account
from web3 import Web3
from web3._utils.fee_utils import fee_history_priority_fee

from test_web3_node import CHAIN_ID, KEY0, RECIPIENT, raw, rpc

# A hang guard only: a passing run never gets near it.
GUARD_SECONDS = 300


def test_default_retry_recovers_from_429_with_retry_after(node_factory):
    faults = {"seed": 1, "rules": [{"shape": "http-429", "methods": ["eth_chainId"], "count": 2, "retryAfter": 1}]}
    node = node_factory("--faults", json.dumps(faults))
    w3 = Web3(Web3.HTTPProvider(node.url))  # default settings: retries on HTTPError with backoff
    assert w3.eth.chain_id == CHAIN_ID
    rules = rpc(node, {"jsonrpc": "2.0", "id": 1, "method": "sandnet_getFaults"})["result"]["rules"]
    assert rules[0]["fired"] == 2 and rules[0]["seen"] == 3


def test_fee_history_fees_work_on_a_fresh_living_node(node_factory):
    # The default profile (sepolia) with a short interval so the test needs no 12 s slots.
    node = node_factory("--fee-profile", "sepolia", "--empty-block-interval", "1")
    w3 = Web3(Web3.HTTPProvider(node.url))
    deadline = time.monotonic() + GUARD_SECONDS
    while w3.eth.block_number < 3:
        assert time.monotonic() < deadline, "no blocks came"
        time.sleep(0.2)  # polling a live chain for its next block, as a wallet does; the verdict is below
    history = w3.eth.fee_history(3, "latest", [5.0, 50.0])
    assert all(row[1] > 0 for row in history["reward"])  # web3swift's zero-tip failure cannot happen
    assert all(0 < ratio <= 1 for ratio in history["gasUsedRatio"])
    assert fee_history_priority_fee(w3.eth) >= 10**9
    # A transfer with web3.py's default fees (no fee fields) is mined.
    acct = Account.from_key(KEY0)
    tx = {"to": RECIPIENT, "value": 1, "gas": 21000, "nonce": w3.eth.get_transaction_count(acct.address),
          "chainId": CHAIN_ID, "maxPriorityFeePerGas": w3.eth.max_priority_fee,
          "maxFeePerGas": 2 * w3.eth.get_block("latest")["baseFeePerGas"] + w3.eth.max_priority_fee}
    receipt = w3.eth.wait_for_transaction_receipt(
        w3.eth.send_raw_transaction(raw(acct.sign_transaction(tx))), timeout=GUARD_SECONDS)
    assert receipt["status"] == 1
