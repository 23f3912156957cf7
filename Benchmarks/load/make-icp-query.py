#!/usr/bin/env python3
"""Writes a wrk script body for the ICP ledger over the IC HTTP interface: an anonymous, unsigned
`icrc1_balance_of` query envelope (CBOR, as ic-py sends it) that expires in 4.5 minutes.

    .venv/bin/python Benchmarks/load/make-icp-query.py > /tmp/icp-query.cbor
    ICP_BODY=/tmp/icp-query.cbor wrk -t2 -c64 -d8s --latency -s Benchmarks/load/icp-query.lua \
        http://127.0.0.1:18545/api/v2/canister/ryjl3-tyaaa-aaaaa-aaaba-cai/query
"""
import sys
import time

import cbor2
from ic.candid import Types, encode
from ic.principal import Principal

LEDGER = Principal.from_str("ryjl3-tyaaa-aaaaa-aaaba-cai")
Account = Types.Record({"owner": Types.Principal, "subaccount": Types.Opt(Types.Vec(Types.Nat8))})
arg = encode([{"type": Account, "value": {"owner": "2vxsx-fae", "subaccount": []}}])
content = {
    "request_type": "query", "sender": b"\x04", "canister_id": LEDGER.bytes, "method_name": "icrc1_balance_of",
    "arg": arg, "ingress_expiry": (int(time.time()) + 270) * 10**9,
}
sys.stdout.buffer.write(cbor2.dumps({"content": content}))
