"""web3.py (PyPI, pinned) against a running `sandnet node`: the native NFT collections as a wallet's NFT tab uses
them (issue 30). Reads through `w3.eth.contract(address, abi=…)`, a signed `safeTransferFrom` with its Transfer log
(the token id as topics[3]), the metadata JSON and image fetched from the URI the contract answers."""
import json
import urllib.request

from eth_account import Account
from web3 import Web3

KEY0 = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80"
SHAPES = Web3.to_checksum_address("0x5a4d000000000000000000000000000000000721")
ITEMS = Web3.to_checksum_address("0x5a4d000000000000000000000000000000001155")
FRESH = "0x000000000000000000000000000000000000bEEF"
CHAIN_ID = 11155111

ERC721_ABI = [
    {"type": "function", "name": "name", "stateMutability": "view", "inputs": [], "outputs": [{"type": "string"}]},
    {"type": "function", "name": "balanceOf", "stateMutability": "view", "inputs": [{"name": "owner", "type": "address"}],
     "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "ownerOf", "stateMutability": "view", "inputs": [{"name": "id", "type": "uint256"}],
     "outputs": [{"type": "address"}]},
    {"type": "function", "name": "tokenURI", "stateMutability": "view", "inputs": [{"name": "id", "type": "uint256"}],
     "outputs": [{"type": "string"}]},
    {"type": "function", "name": "supportsInterface", "stateMutability": "view",
     "inputs": [{"name": "id", "type": "bytes4"}], "outputs": [{"type": "bool"}]},
    {"type": "function", "name": "safeTransferFrom", "stateMutability": "nonpayable",
     "inputs": [{"name": "from", "type": "address"}, {"name": "to", "type": "address"}, {"name": "id", "type": "uint256"}],
     "outputs": []},
    {"type": "event", "name": "Transfer", "anonymous": False,
     "inputs": [{"name": "from", "type": "address", "indexed": True}, {"name": "to", "type": "address", "indexed": True},
                {"name": "tokenId", "type": "uint256", "indexed": True}]},
]
ERC1155_ABI = [
    {"type": "function", "name": "balanceOf", "stateMutability": "view",
     "inputs": [{"name": "account", "type": "address"}, {"name": "id", "type": "uint256"}], "outputs": [{"type": "uint256"}]},
    {"type": "function", "name": "uri", "stateMutability": "view", "inputs": [{"name": "id", "type": "uint256"}],
     "outputs": [{"type": "string"}]},
]


def test_nft_tab_reads_transfers_and_metadata(node):
    w3 = Web3(Web3.HTTPProvider(node.url))
    acct = Account.from_key(KEY0)
    shapes = w3.eth.contract(address=SHAPES, abi=ERC721_ABI)
    assert shapes.functions.name().call() == "Sandnet Shapes"
    assert shapes.functions.balanceOf(acct.address).call() == 3
    assert shapes.functions.ownerOf(1).call() == acct.address
    assert shapes.functions.supportsInterface(bytes.fromhex("80ac58cd")).call() is True

    # The metadata the URI points at, and its image, from the node itself (the URI names the node's port).
    uri = shapes.functions.tokenURI(1).call()
    port = node.url.rsplit(":", 1)[1].strip("/")
    assert uri == "http://127.0.0.1:8545/nft/%s/1.json" % SHAPES.lower()
    local = uri.replace(":8545/", ":%s/" % port)
    metadata = json.loads(urllib.request.urlopen(local, timeout=10).read())
    assert metadata["name"] == "Sandnet Shapes #1"
    assert {a["trait_type"] for a in metadata["attributes"]} == {"Shape", "Color", "Generation"}
    image = urllib.request.urlopen(metadata["image"].replace(":8545/", ":%s/" % port), timeout=10)
    assert image.headers["Content-Type"] == "image/svg+xml" and image.read().startswith(b"<svg ")

    # A signed safeTransferFrom to an address without code; the Transfer log carries the id as topics[3].
    tx = shapes.functions.safeTransferFrom(acct.address, FRESH, 1).build_transaction(
        {"from": acct.address, "nonce": w3.eth.get_transaction_count(acct.address), "chainId": CHAIN_ID})
    signed = acct.sign_transaction(tx)
    receipt = w3.eth.wait_for_transaction_receipt(w3.eth.send_raw_transaction(signed.raw_transaction))
    assert receipt["status"] == 1
    assert len(receipt["logs"][0]["topics"]) == 4 and int.from_bytes(receipt["logs"][0]["topics"][3], "big") == 1
    events = shapes.events.Transfer().process_receipt(receipt)
    assert events[0]["args"]["to"] == FRESH and events[0]["args"]["tokenId"] == 1
    assert shapes.functions.ownerOf(1).call() == FRESH

    # ERC-1155: balances and the {id} template.
    items = w3.eth.contract(address=ITEMS, abi=ERC1155_ABI)
    assert items.functions.balanceOf(acct.address, 1).call() == 10
    template = items.functions.uri(2).call()
    assert template.endswith("/{id}.json")
    item = json.loads(urllib.request.urlopen(
        template.replace(":8545/", ":%s/" % port).replace("{id}", "%064x" % 2), timeout=10).read())
    assert item["decimals"] == 0
