"""ic-py 1.0.1 (PyPI), unmodified, against the ICP ledger of a real `sandnet node` over the IC HTTP interface."""
import time

import cbor2
import httpx
import pytest
from ic.agent import Agent
from ic.candid import Types, encode
from ic.client import Client
from ic.identity import Identity
from ic.principal import Principal

LEDGER = "ryjl3-tyaaa-aaaaa-aaaba-cai"
FEE = 10_000

Tokens = Types.Record({"e8s": Types.Nat64})
Account = Types.Record({"owner": Types.Principal, "subaccount": Types.Opt(Types.Vec(Types.Nat8))})
TransferArg = Types.Record({
    "from_subaccount": Types.Opt(Types.Vec(Types.Nat8)),
    "to": Account,
    "amount": Types.Nat,
    "fee": Types.Opt(Types.Nat),
    "memo": Types.Opt(Types.Vec(Types.Nat8)),
    "created_at_time": Types.Opt(Types.Nat64),
})
TransferError = Types.Variant({
    "BadFee": Types.Record({"expected_fee": Types.Nat}),
    "BadBurn": Types.Record({"min_burn_amount": Types.Nat}),
    "InsufficientFunds": Types.Record({"balance": Types.Nat}),
    "TooOld": Types.Null,
    "CreatedInFuture": Types.Record({"ledger_time": Types.Nat64}),
    "TemporarilyUnavailable": Types.Null,
    "Duplicate": Types.Record({"duplicate_of": Types.Nat}),
    "GenericError": Types.Record({"error_code": Types.Nat, "message": Types.Text}),
})
TransferResult = Types.Variant({"Ok": Types.Nat, "Err": TransferError})
LegacyTransferArgs = Types.Record({
    "memo": Types.Nat64,
    "amount": Tokens,
    "fee": Tokens,
    "from_subaccount": Types.Opt(Types.Vec(Types.Nat8)),
    "to": Types.Vec(Types.Nat8),
    "created_at_time": Types.Opt(Types.Record({"timestamp_nanos": Types.Nat64})),
})
LegacyTransferResult = Types.Variant({
    "Ok": Types.Nat64,
    "Err": Types.Variant({
        "BadFee": Types.Record({"expected_fee": Tokens}),
        "InsufficientFunds": Types.Record({"balance": Tokens}),
        "TxTooOld": Types.Record({"allowed_window_nanos": Types.Nat64}),
        "TxCreatedInFuture": Types.Null,
        "TxDuplicate": Types.Record({"duplicate_of": Types.Nat64}),
    }),
})


def agent_for(node, identity):
    return Agent(identity, Client(url=node.url))


class PinnedExpiryAgent(Agent):
    """ic-py's Agent with its ingress expiry fixed when made, not read from the clock at each call (ic-py rounds
    time.time() + ingress_expiry to the second, so two calls that straddle a second boundary get different request
    ids): repeating a call then repeats the same request, however slowly the machine runs."""

    def __init__(self, identity, client, ingress_expiry=300):
        super().__init__(identity, client, ingress_expiry=ingress_expiry)
        self.pinned_expiry = super().get_expiry_date()

    def get_expiry_date(self):
        return self.pinned_expiry


def claim(node, principal_text):
    response = httpx.post(node.url + "/api/icp/claim", json={"account": principal_text}, timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def icrc1_balance(agent, principal):
    arg = encode([{"type": Account, "value": {"owner": principal.to_str(), "subaccount": []}}])
    result = agent.query_raw(LEDGER, "icrc1_balance_of", arg, [Types.Nat])
    return result[0]["value"]


def legacy_balance(agent, principal):
    account_id = bytes.fromhex(principal.to_account_id().to_str().removeprefix("0x"))
    arg = encode([{"type": Types.Record({"account": Types.Vec(Types.Nat8)}), "value": {"account": account_id}}])
    result = agent.query_raw(LEDGER, "account_balance", arg, [Tokens])
    return result[0]["value"]["e8s"]


def icrc1_transfer(agent, to_principal, amount, created_at_time=None):
    arg = encode([{"type": TransferArg, "value": {
        "from_subaccount": [], "to": {"owner": to_principal.to_str(), "subaccount": []}, "amount": amount,
        "fee": [], "memo": [], "created_at_time": [] if created_at_time is None else [created_at_time],
    }}])
    return agent.update_raw(LEDGER, "icrc1_transfer", arg, [TransferResult])[0]["value"]


def test_status_serves_a_root_key(node):
    body = httpx.get(node.url + "/api/v2/status").content
    status = cbor2.loads(body)
    assert status["replica_health_status"] == "healthy"
    assert len(status["root_key"]) == 133


def test_faucet_balance_and_icrc1_transfer_between_ed25519_and_secp256k1(node):
    alice = Identity()  # Ed25519, random
    bob = Identity(type="secp256k1")
    claim(node, alice.sender().to_str())
    alice_agent = agent_for(node, alice)
    assert icrc1_balance(alice_agent, alice.sender()) == 100 * 10**8
    assert legacy_balance(agent_for(node, Identity(anonymous=True)), alice.sender()) == 100 * 10**8

    result = icrc1_transfer(alice_agent, bob.sender(), 10**8)
    assert "Ok" in result, result
    assert icrc1_balance(alice_agent, bob.sender()) == 10**8
    assert icrc1_balance(alice_agent, alice.sender()) == 100 * 10**8 - 10**8 - FEE

    # bob (secp256k1) sends back with the legacy method to alice's account identifier
    account_id = alice.sender().to_account_id().to_str().removeprefix("0x")
    arg = encode([{"type": LegacyTransferArgs, "value": {
        "memo": 7, "amount": {"e8s": 5_000_000}, "fee": {"e8s": FEE}, "from_subaccount": [],
        "to": bytes.fromhex(account_id), "created_at_time": [],
    }}])
    legacy = agent_for(node, bob).update_raw(LEDGER, "transfer", arg, [LegacyTransferResult])[0]["value"]
    assert "Ok" in legacy, legacy
    assert icrc1_balance(alice_agent, bob.sender()) == 10**8 - 5_000_000 - FEE


def test_deduplication_and_insufficient_funds_come_back_as_ledger_errors(node):
    alice = Identity()
    claim(node, alice.sender().to_str())
    agent = PinnedExpiryAgent(alice, Client(url=node.url))
    bob = Identity()
    now = time.time_ns()
    first = icrc1_transfer(agent, bob.sender(), 1_000, created_at_time=now)
    assert "Ok" in first, first
    # The identical envelope again is the same IC request (same request id): it runs once and reads the same reply.
    assert icrc1_transfer(agent, bob.sender(), 1_000, created_at_time=now) == first
    # A new request (another expiry, so another request id) with the same transaction is a ledger duplicate.
    other = PinnedExpiryAgent(alice, Client(url=node.url), ingress_expiry=240)
    again = icrc1_transfer(other, bob.sender(), 1_000, created_at_time=now)
    assert again["Err"]["Duplicate"]["duplicate_of"] == first["Ok"]
    broke = icrc1_transfer(agent_for(node, bob), alice.sender(), 10**8)
    assert broke["Err"]["InsufficientFunds"]["balance"] == 1_000


def test_a_wrong_argument_type_is_rejected_by_the_canister(node):
    agent = agent_for(node, Identity())
    arg = encode([{"type": Types.Text, "value": "not an account"}])
    with pytest.raises(Exception, match="Rejected"):
        agent.update_raw(LEDGER, "icrc1_transfer", arg)
    reply = agent.query_raw(LEDGER, "icrc1_balance_of", arg)
    assert isinstance(reply, str) and reply  # ic-py returns the reject message of a rejected query


def test_a_tampered_signature_is_refused_with_http_400(node):
    alice = Identity()
    req = {
        "request_type": "query", "sender": alice.sender().bytes, "canister_id": Principal.from_str(LEDGER).bytes,
        "method_name": "icrc1_fee", "arg": encode([]), "ingress_expiry": (int(time.time()) + 120) * 10**9,
    }
    from ic.agent import sign_request
    _, body = sign_request(req, alice)
    envelope = cbor2.loads(body)
    envelope["sender_sig"] = bytes(64)
    response = httpx.post(node.url + f"/api/v2/canister/{LEDGER}/query", content=cbor2.dumps(envelope),
                          headers={"Content-Type": "application/cbor"})
    assert response.status_code == 400
    assert "Invalid signature" in response.text


def rpc(node, method, params):
    response = httpx.post(node.url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, timeout=60)
    body = response.json()
    assert "result" in body, body
    return body["result"]


def test_the_ledger_survives_a_restart(node_factory):
    node = node_factory()
    alice, bob = Identity(), Identity()
    claim(node, alice.sender().to_str())
    assert "Ok" in icrc1_transfer(agent_for(node, alice), bob.sender(), 12_345)
    length = rpc(node, "sandnet_icpInfo", [])["chainLength"]
    node.stop()
    node.start()
    assert rpc(node, "sandnet_icpInfo", [])["chainLength"] == length
    agent = agent_for(node, alice)
    assert icrc1_balance(agent, bob.sender()) == 12_345
    assert icrc1_balance(agent, alice.sender()) == 100 * 10**8 - 12_345 - FEE
    # and the restarted ledger keeps working (its parent hash chain reloaded)
    assert "Ok" in icrc1_transfer(agent, bob.sender(), 1)


def test_the_cli_reads_balances_and_sends_with_the_dev_mnemonic(node):
    import subprocess
    from conftest import sandnet_binary
    mnemonic = "test test test test test test test test test test test junk"
    bob = Identity()
    sent = subprocess.run(
        [sandnet_binary(), "icp", "transfer", "--to", bob.sender().to_str(), "--amount", "1.5",
         "--mnemonic", mnemonic, "--url", node.url], capture_output=True, text=True)
    assert sent.returncode == 0, sent.stderr
    assert "Ok" in sent.stdout
    shown = subprocess.run([sandnet_binary(), "icp", "balance", bob.sender().to_str(), "--url", node.url],
                           capture_output=True, text=True)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.strip() == "1.50000000 ICP (150000000 e8s)"
    account_id = bob.sender().to_account_id().to_str().removeprefix("0x")
    by_id = subprocess.run([sandnet_binary(), "icp", "balance", account_id, "--url", node.url, "--e8s"],
                           capture_output=True, text=True)
    assert by_id.stdout.strip() == "150000000"
    broke = subprocess.run(
        [sandnet_binary(), "icp", "transfer", "--to", account_id, "--amount", "1",
         "--mnemonic", "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about",
         "--url", node.url], capture_output=True, text=True)
    assert broke.returncode == 1
    assert "InsufficientFunds" in broke.stdout


@pytest.mark.parametrize("body, fragment", [
    (b"not json", "invalid request body"),
    (b'{"address": "2vxsx-fae"}', "invalid request body"),
    (b'{"account": "not-an-account"}', "invalid account"),
    (b'{"account": "2vxsx-fae", "e8s": "lots"}', "e8s must be a whole number"),
    (b'{"account": "2vxsx-fae", "e8s": 0}', "amount must be between"),
])
def test_the_icp_faucet_refuses_bad_claims(node, body, fragment):
    response = httpx.post(node.url + "/api/icp/claim", content=body)
    assert response.status_code == 400
    assert fragment in response.text


def test_malformed_envelopes_get_a_400_with_the_reason(node):
    response = httpx.post(node.url + f"/api/v2/canister/{LEDGER}/call", content=b"\xff\x00garbage",
                          headers={"Content-Type": "application/cbor"})
    assert response.status_code == 400
    assert response.text.startswith("Could not parse body as call request: ")
    response = httpx.post(node.url + "/api/v2/canister/not-a-principal/query", content=b"")
    assert response.status_code == 404
