"""blockparty (PyPI), an Etherscan API v2 client, unchanged but for its chain registry entry pointing at the node's
`/v2/api` (README, "Explorer APIs"): txlist, tokentx, balances, paging, the empty and error cases."""
import pytest
from blockparty import ChainEntry, ChainRegistry, ExplorerInfo, SyncBlockpartyClient
from web3 import Web3

SEPOLIA = 11155111


@pytest.fixture
def client(node):
    entry = ChainEntry(chain_id=SEPOLIA, name="Sandnet", is_testnet=True, explorers=[
        ExplorerInfo(type="etherscan", api_url=node.url.rstrip("/") + f"/v2/api?chainid={SEPOLIA}",
                     frontend_url=node.url.rstrip("/") + "/explorer", status=1)])
    with SyncBlockpartyClient(SEPOLIA, explorer_type="etherscan", api_key="any",
                              registry=ChainRegistry([entry]), cache_ttl=0) as c:
        yield c


def test_history_balances_and_paging(node, client):
    w3 = Web3(Web3.HTTPProvider(node.url))
    sender = w3.eth.accounts[0]
    recipient = Web3.to_checksum_address("0x00000000000000000000000000000000000000a1")
    hashes = [w3.eth.send_transaction({"from": sender, "to": recipient, "value": v}).hex() for v in (1, 2, 3)]
    txs = client.get_normal_transactions(recipient, sort="asc", page=1, limit=10).result
    assert ["0x" + h.removeprefix("0x") for h in hashes] == [t.hash for t in txs]
    assert [t.value for t in txs] == [1, 2, 3]
    assert all(not t.is_error and t.txreceipt_status == "1" and t.gas_used == 21_000 for t in txs)
    page2 = client.get_normal_transactions(recipient, sort="desc", page=2, limit=2).result
    assert [t.value for t in page2] == [1]
    assert client.get_balance(recipient).result == "6"
    # An address without history: Etherscan's empty answer (status 0, "No transactions found"), which blockparty
    # 0.8.0 raises as an error, exactly as it does against Etherscan (reference §A2: many libraries do).
    with pytest.raises(Exception, match="No transactions found"):
        client.get_normal_transactions("0x00000000000000000000000000000000000000a2")


def test_token_transfers(node, client):
    w3 = Web3(Web3.HTTPProvider(node.url))
    sender = w3.eth.accounts[0]
    usdc = "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238"
    recipient = "0x00000000000000000000000000000000000000b1"
    data = "0xa9059cbb" + recipient[2:].rjust(64, "0") + hex(777)[2:].rjust(64, "0")
    w3.eth.send_transaction({"from": sender, "to": usdc, "data": data})
    rows = client.get_erc20_token_transfers(address=recipient).result
    assert len(rows) == 1
    row = rows[0]
    assert row.value == 777 and row.token_symbol == "USDC" and int(row.token_decimal) == 6
    assert int(client.get_token_balance(usdc, recipient).result) == 777
