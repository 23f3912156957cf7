#!/usr/bin/env python3
"""Writes Vectors/generated/icp-ledger-candid.json: ledger canister calls encoded by ic-py (PyPI ic-py 1.0.1).

Each case is a method, its Candid argument bytes as ic-py encodes them, and the reply the ICP ledger gives on
Sandnet's test fixture (Alice holds 10 ICP, Bob 1 ICP, both minted at 1 700 000 000 s, blocks 0 and 1; the caller
is Alice, the ledger time is the mint time), also encoded by ic-py. Tests/ICPLedgerServiceTests feed the
arguments to LedgerService and compare its replies with these, value for value (and byte for byte where the type
tables coincide).

Run: .venv/bin/python scripts/generate-icp-ledger-candid-vectors.py
"""
import json
import os

from ic.candid import Types, encode
from ic.principal import Principal

START = 1_700_000_000 * 1_000_000_000


def principal(seed):
    return Principal(bytes=bytes([seed] * 28 + [0x02]))


ALICE, BOB = principal(0x01), principal(0x02)
SUBACCOUNT = Types.Opt(Types.Vec(Types.Nat8))
ACCOUNT = Types.Record({"owner": Types.Principal, "subaccount": SUBACCOUNT})
TOKENS = Types.Record({"e8s": Types.Nat64})
TIMESTAMP = Types.Record({"timestamp_nanos": Types.Nat64})
ICRC1_ERROR = Types.Variant({
    "BadFee": Types.Record({"expected_fee": Types.Nat}),
    "BadBurn": Types.Record({"min_burn_amount": Types.Nat}),
    "InsufficientFunds": Types.Record({"balance": Types.Nat}),
    "TooOld": Types.Null,
    "CreatedInFuture": Types.Record({"ledger_time": Types.Nat64}),
    "TemporarilyUnavailable": Types.Null,
    "Duplicate": Types.Record({"duplicate_of": Types.Nat}),
    "GenericError": Types.Record({"error_code": Types.Nat, "message": Types.Text}),
})
ICRC1_RESULT = Types.Variant({"Ok": Types.Nat, "Err": ICRC1_ERROR})
LEGACY_ERROR = Types.Variant({
    "BadFee": Types.Record({"expected_fee": TOKENS}),
    "InsufficientFunds": Types.Record({"balance": TOKENS}),
    "TxTooOld": Types.Record({"allowed_window_nanos": Types.Nat64}),
    "TxCreatedInFuture": Types.Null,
    "TxDuplicate": Types.Record({"duplicate_of": Types.Nat64}),
})
LEGACY_RESULT = Types.Variant({"Ok": Types.Nat64, "Err": LEGACY_ERROR})
APPROVE_ERROR = Types.Variant({
    "BadFee": Types.Record({"expected_fee": Types.Nat}),
    "InsufficientFunds": Types.Record({"balance": Types.Nat}),
    "AllowanceChanged": Types.Record({"current_allowance": Types.Nat}),
    "Expired": Types.Record({"ledger_time": Types.Nat64}),
    "TooOld": Types.Null,
    "CreatedInFuture": Types.Record({"ledger_time": Types.Nat64}),
    "Duplicate": Types.Record({"duplicate_of": Types.Nat}),
    "TemporarilyUnavailable": Types.Null,
    "GenericError": Types.Record({"error_code": Types.Nat, "message": Types.Text}),
})
APPROVE_RESULT = Types.Variant({"Ok": Types.Nat, "Err": APPROVE_ERROR})
VALUE = Types.Variant({"Nat": Types.Nat, "Int": Types.Int, "Text": Types.Text, "Blob": Types.Vec(Types.Nat8)})


def account(p):
    return {"owner": p.to_str(), "subaccount": []}


def hexed(args):
    return encode(args).hex()


def icrc1_transfer_arg(fee):
    return {
        "from_subaccount": [], "to": account(BOB), "amount": 100_000, "fee": [fee], "memo": [b"sandnet"],
        "created_at_time": [START],
    }


TRANSFER_ARG = Types.Record({
    "from_subaccount": SUBACCOUNT, "to": ACCOUNT, "amount": Types.Nat, "fee": Types.Opt(Types.Nat),
    "memo": Types.Opt(Types.Vec(Types.Nat8)), "created_at_time": Types.Opt(Types.Nat64),
})
LEGACY_ARGS = Types.Record({
    "memo": Types.Nat64, "amount": TOKENS, "fee": TOKENS, "from_subaccount": SUBACCOUNT, "to": Types.Vec(Types.Nat8),
    "created_at_time": Types.Opt(TIMESTAMP),
})
APPROVE_ARGS = Types.Record({
    "from_subaccount": SUBACCOUNT, "spender": ACCOUNT, "amount": Types.Nat, "expected_allowance": Types.Opt(Types.Nat),
    "expires_at": Types.Opt(Types.Nat64), "fee": Types.Opt(Types.Nat), "memo": Types.Opt(Types.Vec(Types.Nat8)),
    "created_at_time": Types.Opt(Types.Nat64),
})
bob_id = bytes.fromhex(BOB.to_account_id().to_str()[2:] if BOB.to_account_id().to_str().startswith("0x")
                       else BOB.to_account_id().to_str())
alice_id = bytes.fromhex(ALICE.to_account_id().to_str()[2:] if ALICE.to_account_id().to_str().startswith("0x")
                         else ALICE.to_account_id().to_str())

cases = [
    ("icrc1_balance_of", [{"type": ACCOUNT, "value": account(ALICE)}], [{"type": Types.Nat, "value": 1_000_000_000}]),
    ("account_balance", [{"type": Types.Record({"account": Types.Vec(Types.Nat8)}), "value": {"account": alice_id}}],
     [{"type": TOKENS, "value": {"e8s": 1_000_000_000}}]),
    ("transfer_fee", [{"type": Types.Record({}), "value": {}}],
     [{"type": Types.Record({"transfer_fee": TOKENS}), "value": {"transfer_fee": {"e8s": 10_000}}}]),
    ("icrc1_fee", [], [{"type": Types.Nat, "value": 10_000}]),
    ("icrc1_decimals", [], [{"type": Types.Nat8, "value": 8}]),
    ("icrc1_symbol", [], [{"type": Types.Text, "value": "ICP"}]),
    ("account_identifier", [{"type": ACCOUNT, "value": account(BOB)}], [{"type": Types.Vec(Types.Nat8), "value": bob_id}]),
    ("icrc1_metadata", [], [{"type": Types.Vec(Types.Tuple(Types.Text, VALUE)), "value": [
        ("icrc1:decimals", {"Nat": 8}), ("icrc1:name", {"Text": "Internet Computer"}), ("icrc1:symbol", {"Text": "ICP"}),
        ("icrc1:fee", {"Nat": 10_000})]}]),
    ("icrc1_transfer", [{"type": TRANSFER_ARG, "value": icrc1_transfer_arg(10_000)}],
     [{"type": ICRC1_RESULT, "value": {"Ok": 2}}]),
    ("icrc1_transfer", [{"type": TRANSFER_ARG, "value": icrc1_transfer_arg(1)}],
     [{"type": ICRC1_RESULT, "value": {"Err": {"BadFee": {"expected_fee": 10_000}}}}]),
    ("transfer", [{"type": LEGACY_ARGS, "value": {
        "memo": 42, "amount": {"e8s": 100_000}, "fee": {"e8s": 10_000}, "from_subaccount": [], "to": bob_id,
        "created_at_time": [{"timestamp_nanos": START}]}}],
     [{"type": LEGACY_RESULT, "value": {"Ok": 2}}]),
    ("transfer", [{"type": LEGACY_ARGS, "value": {
        "memo": 42, "amount": {"e8s": 100_000_000_000}, "fee": {"e8s": 10_000}, "from_subaccount": [], "to": bob_id,
        "created_at_time": []}}],
     [{"type": LEGACY_RESULT, "value": {"Err": {"InsufficientFunds": {"balance": {"e8s": 1_000_000_000}}}}}]),
    ("icrc2_approve", [{"type": APPROVE_ARGS, "value": {
        "from_subaccount": [], "spender": account(BOB), "amount": 500_000_000, "expected_allowance": [],
        "expires_at": [], "fee": [], "memo": [], "created_at_time": []}}],
     [{"type": APPROVE_RESULT, "value": {"Ok": 2}}]),
]

out = {
    "generator": "scripts/generate-icp-ledger-candid-vectors.py (ic-py 1.0.1)",
    "fixture": {"alice": ALICE.to_str(), "bob": BOB.to_str(), "now": START},
    "cases": [{"method": m, "arg": hexed(a), "reply": hexed(r)} for m, a, r in cases],
}
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
path = os.path.join(root, "Vectors", "generated", "icp-ledger-candid.json")
with open(path, "w") as f:
    json.dump(out, f, indent=1)
    f.write("\n")
print(f"wrote {len(cases)} cases to {path}")
