"""web3.py (PyPI, pinned) against a running `sandnet node`: the native tokens as wallets use them. Contract reads
and transfers through `w3.eth.contract(address, abi=ERC20_ABI)`, a Transfer event filter, a revert's shape, an
EIP-2612 permit signed by eth-account's `encode_typed_data`, Multicall3, and every block recomputed by third-party
libraries (py-trie, eth-utils, eth-abi) through scripts/verify-blocks.py --rpc."""
import importlib.util
import os

import pytest
from eth_account import Account
from eth_account.messages import encode_typed_data
from web3 import Web3
from web3.exceptions import ContractLogicError

KEY0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
KEY1 = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d"
USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
LINK = "0x779877A7B0D9E8603169DdbD7836e478b4624789"
MULTICALL3 = "0xcA11bde05977b3631167028862bE2a173976CA11"
FRESH = "0x000000000000000000000000000000000000bEEF"
CHAIN_ID = 11155111

ERC20_ABI = [
    {"type": "function", "name": "name", "stateMutability": "view", "inputs": [], "outputs": [{"type": "string"}]},
    {"type": "function", "name": "symbol", "stateMutability": "view", "inputs": [], "outputs": [{"type": "string"}]},
    {"type": "function", "name": "decimals", "stateMutability": "view", "inputs": [], "outputs": [{"type": "uint8"}]},
    {"type": "function", "name": "totalSupply", "stateMutability": "view", "inputs": [], "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "balanceOf", "stateMutability": "view", "inputs": [{"name": "owner", "type": "address"}],
     "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "allowance", "stateMutability": "view",
     "inputs": [{"name": "owner", "type": "address"}, {"name": "spender", "type": "address"}], "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "transfer", "stateMutability": "nonpayable",
     "inputs": [{"name": "to", "type": "address"}, {"name": "value", "type": "uint256"}], "outputs": [{"type": "bool"}]},
    {"type": "function", "name": "nonces", "stateMutability": "view", "inputs": [{"name": "owner", "type": "address"}],
     "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "DOMAIN_SEPARATOR", "stateMutability": "view", "inputs": [], "outputs": [{"type": "bytes32"}]},
    {"type": "function", "name": "permit", "stateMutability": "nonpayable",
     "inputs": [{"name": "owner", "type": "address"}, {"name": "spender", "type": "address"},
                {"name": "value", "type": "uint256"}, {"name": "deadline", "type": "uint256"},
                {"name": "v", "type": "uint8"}, {"name": "r", "type": "bytes32"}, {"name": "s", "type": "bytes32"}],
     "outputs": []},
    {"type": "event", "name": "Transfer", "anonymous": False,
     "inputs": [{"name": "from", "type": "address", "indexed": True}, {"name": "to", "type": "address", "indexed": True},
                {"name": "value", "type": "uint256", "indexed": False}]},
    {"type": "event", "name": "Approval", "anonymous": False,
     "inputs": [{"name": "owner", "type": "address", "indexed": True}, {"name": "spender", "type": "address", "indexed": True},
                {"name": "value", "type": "uint256", "indexed": False}]},
]

MULTICALL3_ABI = [
    {"type": "function", "name": "aggregate3", "stateMutability": "payable",
     "inputs": [{"name": "calls", "type": "tuple[]", "components": [
         {"name": "target", "type": "address"}, {"name": "allowFailure", "type": "bool"}, {"name": "callData", "type": "bytes"}]}],
     "outputs": [{"name": "returnData", "type": "tuple[]", "components": [
         {"name": "success", "type": "bool"}, {"name": "returnData", "type": "bytes"}]}]},
]


def w3_for(node):
    return Web3(Web3.HTTPProvider(node.url, request_kwargs={"timeout": 120}))


def send(w3, acct, tx):
    base = w3.eth.get_block("pending")["baseFeePerGas"]
    tip = w3.eth.max_priority_fee
    tx = dict(tx, chainId=CHAIN_ID, nonce=w3.eth.get_transaction_count(acct.address, "pending"),
              maxFeePerGas=2 * base + tip, maxPriorityFeePerGas=tip, type=2)
    signed = acct.sign_transaction(tx)
    raw = getattr(signed, "raw_transaction", None) or signed.rawTransaction
    return w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(raw), timeout=120)


def test_contract_reads_and_transfer_with_event_filter(node):
    w3 = w3_for(node)
    acct = Account.from_key(KEY0)
    usdc = w3.eth.contract(address=USDC, abi=ERC20_ABI)
    assert usdc.functions.symbol().call() == "USDC"
    assert usdc.functions.name().call() == "USDC"
    assert usdc.functions.decimals().call() == 6
    assert usdc.functions.balanceOf(acct.address).call() == 1_000_000 * 10**6
    assert w3.eth.get_code(USDC) != b""
    event_filter = usdc.events.Transfer.create_filter(from_block="latest", argument_filters={"from": acct.address})
    tx = usdc.functions.transfer(FRESH, 2_500_000).build_transaction({"from": acct.address, "chainId": CHAIN_ID})
    assert tx["gas"] > 21_000 + 30_000  # estimated by the node: a token transfer to a fresh holder
    receipt = send(w3, acct, {"to": USDC, "data": tx["data"], "gas": tx["gas"]})
    assert receipt["status"] == 1 and receipt["gasUsed"] == tx["gas"]
    events = usdc.events.Transfer().process_receipt(receipt)
    assert len(events) == 1 and events[0]["args"]["to"] == FRESH and events[0]["args"]["value"] == 2_500_000
    changes = event_filter.get_new_entries()
    assert [e["args"]["value"] for e in changes] == [2_500_000]
    assert usdc.functions.balanceOf(FRESH).call() == 2_500_000
    logs = w3.eth.get_logs({"address": USDC, "fromBlock": receipt["blockNumber"], "toBlock": receipt["blockNumber"]})
    assert len(logs) == 1 and logs[0]["logIndex"] == 0 and logs[0]["transactionHash"] == receipt["transactionHash"]


def test_revert_reaches_web3_as_contract_logic_error(node):
    w3 = w3_for(node)
    link = w3.eth.contract(address=LINK, abi=ERC20_ABI)
    with pytest.raises(ContractLogicError) as raised:
        link.functions.transfer(FRESH, 10**40).call({"from": Account.from_key(KEY1).address})
    assert "ERC20: transfer amount exceeds balance" in str(raised.value)


def test_permit_signed_by_eth_account(node):
    w3 = w3_for(node)
    owner = Account.from_key(KEY0)
    spender = Account.from_key(KEY1)
    usdc = w3.eth.contract(address=USDC, abi=ERC20_ABI)
    nonce = usdc.functions.nonces(owner.address).call()
    deadline = w3.eth.get_block("latest")["timestamp"] + 3600
    message = {
        "types": {
            "EIP712Domain": [{"name": "name", "type": "string"}, {"name": "version", "type": "string"},
                             {"name": "chainId", "type": "uint256"}, {"name": "verifyingContract", "type": "address"}],
            "Permit": [{"name": "owner", "type": "address"}, {"name": "spender", "type": "address"},
                       {"name": "value", "type": "uint256"}, {"name": "nonce", "type": "uint256"},
                       {"name": "deadline", "type": "uint256"}],
        },
        "primaryType": "Permit",
        "domain": {"name": "USDC", "version": "2", "chainId": CHAIN_ID, "verifyingContract": USDC},
        "message": {"owner": owner.address, "spender": spender.address, "value": 777, "nonce": nonce, "deadline": deadline},
    }
    signable = encode_typed_data(full_message=message)
    assert usdc.functions.DOMAIN_SEPARATOR().call() == signable.header
    sig = owner.sign_message(signable)
    tx = usdc.functions.permit(owner.address, spender.address, 777, deadline, sig.v, sig.r.to_bytes(32, "big"),
                               sig.s.to_bytes(32, "big")).build_transaction({"from": spender.address, "chainId": CHAIN_ID})
    receipt = send(w3, spender, {"to": USDC, "data": tx["data"], "gas": tx["gas"]})
    assert receipt["status"] == 1
    assert usdc.functions.allowance(owner.address, spender.address).call() == 777
    assert usdc.functions.nonces(owner.address).call() == nonce + 1
    approvals = usdc.events.Approval().process_receipt(receipt)
    assert approvals[0]["args"]["value"] == 777


def test_multicall3_batches_balance_reads(node):
    w3 = w3_for(node)
    acct = Account.from_key(KEY0)
    usdc = w3.eth.contract(address=USDC, abi=ERC20_ABI)
    multicall = w3.eth.contract(address=MULTICALL3, abi=MULTICALL3_ABI)
    calls = [(USDC, False, usdc.encode_abi("balanceOf", [acct.address])), (USDC, False, usdc.encode_abi("decimals", [])),
             (FRESH, True, b"\x12\x34")]
    results = multicall.functions.aggregate3(calls).call()
    assert results[0] == (True, (1_000_000 * 10**6).to_bytes(32, "big"))
    assert results[1] == (True, (6).to_bytes(32, "big"))
    assert results[2] == (True, b"")


def test_blocks_recompute_with_third_party_libraries(node):
    w3 = w3_for(node)
    acct = Account.from_key(KEY0)
    usdc = w3.eth.contract(address=USDC, abi=ERC20_ABI)
    tx = usdc.functions.transfer(FRESH, 1).build_transaction({"from": acct.address, "chainId": CHAIN_ID})
    send(w3, acct, {"to": USDC, "data": tx["data"], "gas": tx["gas"]})
    send(w3, acct, {"to": FRESH, "value": 1, "gas": 21000})
    path = os.path.join(os.path.dirname(__file__), "..", "..", "scripts", "verify-blocks.py")
    spec = importlib.util.spec_from_file_location("verify_blocks", path)
    verify = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(verify)
    for number in range(0, w3.eth.block_number + 1):
        results = verify.verify_rpc_block(node.url, number)
        failed = [(what, got, want) for what, ok, got, want in results if not ok]
        assert failed == [], (number, failed)
        assert any(what.startswith("receiptsRoot") for what, *_ in results)


def test_cli_token_list_balance_transfer(node):
    import subprocess

    from conftest import sandnet_binary

    def cli(*args):
        done = subprocess.run([sandnet_binary(), "token", *args, "--rpc-url", node.url], capture_output=True, text=True,
                              timeout=120)
        return done.returncode, done.stdout.strip(), done.stderr.strip()

    code, out, _ = cli("list")
    assert code == 0 and out.splitlines()[0].split("\t")[:4] == ["USDC", USDC, "6", "USDC"]
    code, out, _ = cli("transfer", FRESH, "12.5", "--token", "usdc", "--private-key", KEY0[2:])
    assert code == 0 and out.startswith("0x") and len(out) == 66
    receipt = w3_for(node).eth.get_transaction_receipt(out)
    assert receipt["status"] == 1 and len(receipt["logs"]) == 1
    assert cli("balance", FRESH, "--token", "USDC")[1] == "12.5 USDC"
    code, _, err = cli("transfer", FRESH, "99999999999", "--token", "LINK", "--private-key", KEY0[2:])
    assert code != 0 and "execution reverted: ERC20: transfer amount exceeds balance" in err
