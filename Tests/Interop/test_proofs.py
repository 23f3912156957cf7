"""eth_getProof (EIP-1186) from a running `sandnet node`, verified by third-party code: py-trie's
`HexaryTrie.get_from_proof` walks each proof from the block's `stateRoot` (accounts) or the account's `storageHash`
(storage slots); `rlp` and eth-utils decode and hash. Funded accounts, an absent account, the native USDC contract's
storage (holders' balances, total supply) and an absent slot, at the head and at an older block."""
import rlp
import pytest
from eth_utils import keccak, to_bytes, to_canonical_address, to_int
from trie import HexaryTrie
from web3 import Web3

from conftest import Node

USDC = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
ERC20_ABI = [
    {"type": "function", "name": "totalSupply", "stateMutability": "view", "inputs": [], "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "balanceOf", "stateMutability": "view", "inputs": [{"name": "owner", "type": "address"}],
     "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "transfer", "stateMutability": "nonpayable",
     "inputs": [{"name": "to", "type": "address"}, {"name": "value", "type": "uint256"}], "outputs": [{"type": "bool"}]},
]

ABSENT = "0x000000000000000000000000000000000000dEaD"
EMPTY_ROOT = keccak(rlp.encode(b""))
EMPTY_CODE = keccak(b"")
# FiatToken's layout (Sepolia USDC): balances at slot 9, total supply at slot 11.
BALANCES_SLOT, TOTAL_SUPPLY_SLOT = 9, 11


def balance_slot(holder):
    return int.from_bytes(keccak(to_canonical_address(holder).rjust(32, b"\0") + BALANCES_SLOT.to_bytes(32, "big")), "big")


def proven(root, key, proof):
    """The value py-trie finds for `key` under `root` from the proof's nodes alone (b'' when proven absent)."""
    return HexaryTrie.get_from_proof(root, key, [rlp.decode(to_bytes(hexstr=node)) for node in proof])


def check_account(w3, address, block, slots=()):
    if block == "latest":
        block = w3.eth.block_number  # one block for the proof and the header, whatever is mined meanwhile
    response = w3.provider.make_request("eth_getProof", [address, [hex(s) for s in slots], hex(block)])
    assert "result" in response, response
    result = response["result"]
    header = w3.eth.get_block(block)
    leaf = proven(bytes(header["stateRoot"]), keccak(to_canonical_address(address)), result["accountProof"])
    if leaf == b"":
        assert result["codeHash"] == "0x" + "00" * 32 and result["storageHash"] == "0x" + "00" * 32
        assert to_int(hexstr=result["balance"]) == 0 and to_int(hexstr=result["nonce"]) == 0
    else:
        nonce, balance, storage_root, code_hash = rlp.decode(leaf)
        assert to_int(nonce) == to_int(hexstr=result["nonce"])
        assert to_int(balance) == to_int(hexstr=result["balance"]) == w3.eth.get_balance(address, block)
        assert storage_root == to_bytes(hexstr=result["storageHash"])
        assert code_hash == to_bytes(hexstr=result["codeHash"])
    values = []
    for slot, entry in zip(slots, result["storageProof"]):
        assert to_int(hexstr=entry["key"]) == slot
        storage_root = to_bytes(hexstr=result["storageHash"])
        if storage_root in (EMPTY_ROOT, b"\0" * 32):
            assert entry["proof"] == [] and to_int(hexstr=entry["value"]) == 0
            values.append(0)
            continue
        word = proven(storage_root, keccak(slot.to_bytes(32, "big")), entry["proof"])
        value = to_int(rlp.decode(word)) if word else 0
        assert value == to_int(hexstr=entry["value"])
        assert value == to_int(w3.eth.get_storage_at(address, slot, block))
        values.append(value)
    return result, leaf, values


@pytest.fixture(scope="module")
def chain():
    node = Node()
    w3 = Web3(Web3.HTTPProvider(node.url, request_kwargs={"timeout": 120}))
    sender = w3.eth.accounts[0]
    # Blocks with a transfer and a token transfer, so the head's state differs from block 1's.
    w3.eth.wait_for_transaction_receipt(w3.eth.send_transaction({"from": sender, "to": w3.eth.accounts[1], "value": 10**18}))
    usdc = w3.eth.contract(address=USDC, abi=ERC20_ABI)
    txn = usdc.functions.transfer(w3.eth.accounts[2], 1_234_567).build_transaction({"from": sender})
    w3.eth.wait_for_transaction_receipt(w3.eth.send_transaction(txn))
    yield w3
    node.stop()


def test_funded_accounts_verify_against_the_state_root(chain):
    w3 = chain
    for address in w3.eth.accounts[:4]:
        result, leaf, _ = check_account(w3, address, "latest")
        assert leaf != b""
        assert to_bytes(hexstr=result["codeHash"]) == EMPTY_CODE
        assert to_bytes(hexstr=result["storageHash"]) == EMPTY_ROOT
    first, _, _ = check_account(w3, w3.eth.accounts[0], 1)
    head, _, _ = check_account(w3, w3.eth.accounts[0], "latest")
    assert to_int(hexstr=first["nonce"]) == 1 and to_int(hexstr=head["nonce"]) == 2


def test_absent_account_has_an_exclusion_proof(chain):
    result, leaf, values = check_account(chain, ABSENT, "latest", slots=[0, 1])
    assert leaf == b"" and result["accountProof"] and values == [0, 0]


def test_usdc_storage_slots_verify_against_the_storage_hash(chain):
    w3 = chain
    accounts = w3.eth.accounts
    usdc = w3.eth.contract(address=USDC, abi=ERC20_ABI)
    slots = [balance_slot(accounts[0]), balance_slot(accounts[2]), TOTAL_SUPPLY_SLOT, 0xDEAD]
    result, leaf, values = check_account(w3, USDC, "latest", slots=slots)
    assert leaf != b"" and to_bytes(hexstr=result["storageHash"]) != EMPTY_ROOT
    assert values[0] == usdc.functions.balanceOf(accounts[0]).call()
    assert values[1] == usdc.functions.balanceOf(accounts[2]).call() > 1_234_567
    assert values[2] == usdc.functions.totalSupply().call() > 0
    assert values[3] == 0
    # The same slots at block 1, before the token transfer.
    _, _, before = check_account(w3, USDC, 1, slots=slots)
    assert before[1] == values[1] - 1_234_567 and before[0] == values[0] + 1_234_567


def test_limits_and_errors_are_geths(chain):
    response = chain.provider.make_request("eth_getProof", [ABSENT, ["0x" + "1" * 66], "latest"])
    assert response["error"] == {
        "code": -32602, "message": 'storage key too long (want at most 32 bytes): "0x' + "1" * 66 + '"'}
    response = chain.provider.make_request("eth_getProof", [ABSENT, ["0x1"] * 1025, "latest"])
    assert response["error"] == {"code": -32602, "message": "too many storage keys requested (max 1024, got 1025)"}


def test_eth_config_fork_id_is_the_crc32_of_the_genesis_hash(chain):
    """EIP-7910 / EIP-2124: every fork is active at genesis, so the fork hash is CRC32(genesis hash) alone."""
    import zlib

    genesis = bytes(chain.eth.get_block(0)["hash"])
    config = chain.provider.make_request("eth_config", [])["result"]
    current = config["current"]
    assert current["forkId"] == "0x%08x" % zlib.crc32(genesis)
    assert current["chainId"] == hex(chain.eth.chain_id) and current["activationTime"] == 0
    assert current["blobSchedule"] == {"target": 6, "max": 9, "baseFeeUpdateFraction": 5007716}
    assert config["next"] is None and config["last"] is None


def test_create_access_list_names_the_touched_slots_and_the_mined_gas(chain):
    """eth_createAccessList for a USDC transfer: USDC with both holders' balance slots (computed here with
    eth-utils); sent with that list, the transaction uses exactly the gas answered."""
    w3 = chain
    sender, recipient = w3.eth.accounts[3], w3.eth.accounts[4]
    usdc = w3.eth.contract(address=USDC, abi=ERC20_ABI)
    txn = usdc.functions.transfer(recipient, 777).build_transaction({"from": sender, "gas": 100_000})
    call = {"from": sender, "to": USDC, "data": txn["data"]}
    result = w3.provider.make_request("eth_createAccessList", [call, "latest"])["result"]
    assert "error" not in result
    [entry] = result["accessList"]
    assert entry["address"].lower() == USDC.lower()
    keys = {to_int(hexstr=k) for k in entry["storageKeys"]}
    assert {balance_slot(sender), balance_slot(recipient)} <= keys
    listed = dict(txn, accessList=result["accessList"], gas=100_000)
    receipt = w3.eth.wait_for_transaction_receipt(w3.eth.send_transaction(listed))
    assert receipt["status"] == 1 and receipt["gasUsed"] == to_int(hexstr=result["gasUsed"])
    plain = w3.provider.make_request(
        "eth_createAccessList", [{"from": sender, "to": recipient, "value": "0x1"}])["result"]
    assert plain == {"accessList": [], "gasUsed": "0x5208"}
