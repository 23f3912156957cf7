#!/usr/bin/env python3
"""Sandnet vector adapter built on reference Python libraries.

Speaks the JSON-lines protocol of docs/adapters.md on stdin/stdout: one request per line in, one response per
line out. Libraries: rlp (pyrlp) for RLP, eth-account / eth-utils for addresses, keystores and transactions,
mnemonic (python-mnemonic) for BIP-39 and the BIP-32 master key, ic-py for Candid, principals and account ids.

Run it:  sandnet vectors --adapter ".venv/bin/python Adapters/python/sandnet_adapter.py"
"""

import json
import resource
import sys
import traceback

import rlp
from eth_account import Account
from eth_account._utils.legacy_transactions import Transaction as LegacyTransaction
from eth_account.typed_transactions import TypedTransaction
from eth_utils import keccak, to_checksum_address
from hexbytes import HexBytes
from mnemonic import Mnemonic
from mnemonic.mnemonic import b58encode
from ic import candid
from ic.candid import Types
from ic.principal import AccountIdentifier, Principal


class Unsupported(Exception):
    """The library cannot do this operation or this input."""


def unhex(text):
    if not isinstance(text, str) or not text.startswith("0x"):
        raise ValueError("expected a 0x-prefixed hex string, got %r" % (text,))
    return bytes.fromhex(text[2:])


def hexed(data):
    return "0x" + bytes(data).hex()


# --- RLP (pyrlp) -------------------------------------------------------------------------------------------

def rlp_item_in(item):
    if isinstance(item, list):
        return [rlp_item_in(x) for x in item]
    return unhex(item)


def rlp_item_out(item):
    if isinstance(item, list):
        return [rlp_item_out(x) for x in item]
    return hexed(item)


def rlp_encode(inp):
    return {"encoded": hexed(rlp.encode(rlp_item_in(inp["item"])))}


def rlp_decode(inp):
    return {"item": rlp_item_out(rlp.decode(unhex(inp["encoded"])))}


# --- Addresses, BIP-39, BIP-32 -----------------------------------------------------------------------------

def eip55_checksum(inp):
    return {"checksummed": to_checksum_address(inp["address"])}


MNEMONIC_LANGUAGES = set(Mnemonic.list_languages())


def bip39_from_entropy(inp):
    language = inp["language"]
    if language not in MNEMONIC_LANGUAGES:
        raise Unsupported("python-mnemonic has no %s wordlist" % language)
    return {"mnemonic": Mnemonic(language).to_mnemonic(unhex(inp["entropy"]))}


def bip39_seed(inp):
    return {"seed": hexed(Mnemonic.to_seed(inp["mnemonic"], inp.get("passphrase", "")))}


def _b58decode(text):
    alphabet = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    number = 0
    for char in text:
        number = number * 58 + alphabet.index(char)
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    pad = len(text) - len(text.lstrip("1"))
    return b"\0" * pad + raw


def bip32_derive_master(inp):
    if inp["path"] != "m":
        raise Unsupported("python-mnemonic derives only the master key (path m)")
    import hashlib
    from eth_keys import keys

    seed = unhex(inp["seed"])
    if len(seed) != 64:
        raise Unsupported("python-mnemonic's master key takes a 64-byte seed only")
    xprv = Mnemonic.to_hd_master_key(seed)
    payload = _b58decode(xprv)[:-4]
    chain_code, private_key = payload[13:45], payload[46:78]
    public = keys.PrivateKey(private_key).public_key.to_compressed_bytes()
    xpub_payload = bytes.fromhex("0488b21e") + payload[4:13] + chain_code + public
    checksum = hashlib.sha256(hashlib.sha256(xpub_payload).digest()).digest()[:4]
    return {"xprv": xprv, "xpub": b58encode(xpub_payload + checksum)}


# --- Keystores and transactions (eth-account) --------------------------------------------------------------

def keystore_decrypt(inp):
    return {"private_key": hexed(Account.decrypt(inp["keystore"], inp["password"]))}


def tx_sign(inp):
    tx = inp["tx"]
    kind = int(tx.get("type", 0))
    fields = {
        "nonce": int(tx["nonce"]),
        "gas": int(tx["gas"]),
        "value": int(tx["value"]),
        "data": unhex(tx.get("data", "0x")),
    }
    if tx.get("to") is not None:
        fields["to"] = to_checksum_address(tx["to"])
    else:
        fields["to"] = b""
    if tx.get("chain_id") is not None:
        fields["chainId"] = int(tx["chain_id"])
    if kind == 2:
        fields["maxFeePerGas"] = int(tx["max_fee_per_gas"])
        fields["maxPriorityFeePerGas"] = int(tx["max_priority_fee_per_gas"])
    else:
        fields["gasPrice"] = int(tx["gas_price"])
    if kind in (1, 2):
        fields["type"] = kind
        fields["accessList"] = [
            {"address": to_checksum_address(e["address"]), "storageKeys": e["storage_keys"]}
            for e in tx.get("access_list", [])
        ]
    elif kind != 0:
        raise Unsupported("transaction type %d" % kind)
    signed = Account.sign_transaction(fields, unhex(inp["private_key"]))
    return {"raw": hexed(signed.raw_transaction), "hash": hexed(signed.hash)}


def tx_recover(inp):
    return {"sender": Account.recover_transaction(unhex(inp["raw"])).lower()}


def _address_or_none(value):
    if value in (None, b"", ""):
        return None
    if isinstance(value, (bytes, bytearray)):
        return hexed(value)
    return value.lower()


def tx_decode(inp):
    raw = unhex(inp["raw"])
    out = {"hash": hexed(keccak(raw))}
    if raw and raw[0] <= 0x7F:
        typed = TypedTransaction.from_bytes(HexBytes(raw))
        d = typed.as_dict()
        out["type"] = raw[0]
        out["chain_id"] = str(d["chainId"])
        if raw[0] == 2:
            out["max_fee_per_gas"] = str(d["maxFeePerGas"])
            out["max_priority_fee_per_gas"] = str(d["maxPriorityFeePerGas"])
        else:
            out["gas_price"] = str(d["gasPrice"])
        out["access_list"] = [
            {"address": hexed(bytes.fromhex(e["address"][2:]) if isinstance(e["address"], str) else e["address"]),
             "storage_keys": [hexed(k) if isinstance(k, (bytes, bytearray)) else "0x" + int(k, 16).to_bytes(32, "big").hex() if isinstance(k, str) else "0x" + k.to_bytes(32, "big").hex() for k in e["storageKeys"]]}
            for e in d["accessList"]
        ]
        v = d.get("v", d.get("yParity"))
        fields = d
    else:
        legacy = rlp.decode(raw, LegacyTransaction)
        fields = legacy.as_dict()
        out["type"] = 0
        v = fields["v"]
        out["chain_id"] = str((v - 35) // 2) if v >= 35 else None
        out["gas_price"] = str(fields["gasPrice"])
    out["nonce"] = str(fields["nonce"])
    out["gas"] = str(fields["gas"])
    out["to"] = _address_or_none(fields["to"])
    out["value"] = str(fields["value"])
    data = fields["data"]
    out["data"] = hexed(data) if isinstance(data, (bytes, bytearray)) else data.lower()
    out["v"] = str(v)
    out["r"] = str(fields["r"])
    out["s"] = str(fields["s"])
    return out


# --- Candid, principals, account ids (ic-py) ---------------------------------------------------------------

PRIMITIVES = {
    "null": Types.Null, "bool": Types.Bool, "nat": Types.Nat, "int": Types.Int, "nat8": Types.Nat8,
    "nat16": Types.Nat16, "nat32": Types.Nat32, "nat64": Types.Nat64, "int8": Types.Int8, "int16": Types.Int16,
    "int32": Types.Int32, "int64": Types.Int64, "float32": Types.Float32, "float64": Types.Float64,
    "text": Types.Text, "reserved": Types.Reserved, "empty": Types.Empty, "principal": Types.Principal,
}
BIG = {"nat", "int", "nat64", "int64"}


def field_key(field):
    return field["name"] if "name" in field else "_%d" % field["id"]


def ic_type(t):
    if isinstance(t, str):
        return PRIMITIVES[t]
    if "opt" in t:
        return Types.Opt(ic_type(t["opt"]))
    if "vec" in t:
        return Types.Vec(ic_type(t["vec"]))
    if "record" in t:
        return Types.Record({field_key(f): ic_type(f["type"]) for f in t["record"]})
    if "variant" in t:
        return Types.Variant({field_key(f): ic_type(f["type"]) for f in t["variant"]})
    raise Unsupported("type %r" % (t,))


def value_in(t, v):
    if isinstance(t, str):
        if t in BIG:
            return int(v)
        if t in ("float32", "float64"):
            return float(v)
        if t == "principal":
            return v  # ic-py encodes a principal from its text (a Principal object is refused)
        return v
    if "opt" in t:
        return [value_in(t["opt"], x) for x in v]
    if "vec" in t:
        return [value_in(t["vec"], x) for x in v]
    if "record" in t:
        return {field_key(f): value_in(f["type"], v[field_key(f)]) for f in t["record"]}
    if "variant" in t:
        (key, inner), = v.items()
        for f in t["variant"]:
            if field_key(f) == key:
                return {key: value_in(f["type"], inner)}
        raise ValueError("variant case %s not in type" % key)
    raise Unsupported("type %r" % (t,))


def value_out(t, v):
    if isinstance(t, str):
        if t in BIG:
            return str(v)
        if t in ("null", "reserved"):
            return None
        if t == "principal":
            return v.to_str() if isinstance(v, Principal) else str(v)
        if t in ("float32", "float64"):
            if v != v:
                return "nan"
            if v in (float("inf"), float("-inf")):
                return "inf" if v > 0 else "-inf"
        return v
    if "opt" in t:
        return [value_out(t["opt"], x) for x in v]
    if "vec" in t:
        return [value_out(t["vec"], x) for x in v]
    if "record" in t:
        return {field_key(f): value_out(f["type"], v[field_key(f)]) for f in t["record"]}
    if "variant" in t:
        (key, inner), = v.items()
        for f in t["variant"]:
            if field_key(f) == key:
                return {key: value_out(f["type"], inner)}
        raise ValueError("variant case %s not in type" % key)
    raise Unsupported("type %r" % (t,))


def _mentions_reserved(t):
    return "reserved" in json.dumps(t)


def candid_encode(inp):
    if any(_mentions_reserved(t) for t in inp["types"]):
        # ic-py 1.0.1 bug: ReservedClass.encodeValue(self) takes no value, so encode() raises TypeError for any
        # argument list containing reserved (see Adapters/python/README.md).
        raise Unsupported("ic-py 1.0.1 cannot encode reserved (ReservedClass.encodeValue takes no value)")
    params = [{"type": ic_type(t), "value": value_in(t, v)} for t, v in zip(inp["types"], inp["values"])]
    return {"encoded": hexed(candid.encode(params))}


class Budget(Exception):
    """ic-py has no decoding limits; the adapter gives each Candid decode a budget of work instead."""


# A budget in work, not in time, so a case is classified the same on an idle and on an overloaded machine: every
# value ic-py decodes (each call of a type's decodeValue, nested values included) counts one. The Rust reference
# decoder's conformance quota is 20,000,000 cost units at a cost of at least a few units per value; 2,000,000 values
# is far above every vector ic-py decodes (the largest, 1,001 values) and far below the five space bombs it cuts
# (spacebomb.test.did and overshoot.test.did: 10^9-element vectors, 5 × (2^20 − 1) nested nulls, a 23-type record tree).
CANDID_VALUES = 2_000_000
MAX_RESPONSE = 1 << 20
_candid_work = [0]


def _metered(decode_value):
    def metered(self, *args, **kwargs):
        _candid_work[0] += 1
        if _candid_work[0] > CANDID_VALUES:
            raise Budget("gave up after decoding %d values (ic-py has no decoding limits)" % CANDID_VALUES)
        return decode_value(self, *args, **kwargs)

    return metered


def _meter_ic_py():
    for cls in vars(candid).values():
        if isinstance(cls, type) and issubclass(cls, candid.Type) and "decodeValue" in cls.__dict__:
            setattr(cls, "decodeValue", _metered(cls.__dict__["decodeValue"]))


_meter_ic_py()


def candid_decode(inp):
    types = inp["types"]
    _candid_work[0] = 0
    decoded = candid.decode(unhex(inp["encoded"]), [ic_type(t) for t in types])
    if len(decoded) != len(types):
        raise ValueError("decoded %d values for %d types" % (len(decoded), len(types)))
    return {"values": [value_out(t, d["value"]) for t, d in zip(types, decoded)]}


def icp_principal(inp):
    principal = Principal.from_str(inp["text"]) if "text" in inp else Principal(bytes=unhex(inp["bytes"]))
    return {"text": principal.to_str(), "bytes": hexed(principal.bytes)}


def icp_account_id(inp):
    principal = Principal.from_str(inp["principal"])
    sub = inp.get("subaccount")
    number = int.from_bytes(unhex(sub), "big") if sub is not None else 0
    if sub is not None and len(unhex(sub)) != 32:
        raise ValueError("subaccount must be 32 bytes")
    return {"account_id": hexed(AccountIdentifier.new(principal, number).bytes)}


OPS = {
    "rlp.encode": rlp_encode,
    "rlp.decode": rlp_decode,
    "eip55.checksum": eip55_checksum,
    "bip39.from_entropy": bip39_from_entropy,
    "bip39.seed": bip39_seed,
    "bip32.derive": bip32_derive_master,
    "keystore.decrypt": keystore_decrypt,
    "tx.decode": tx_decode,
    "tx.recover": tx_recover,
    "tx.sign": tx_sign,
    "candid.encode": candid_encode,
    "candid.decode": candid_decode,
    "icp.principal": icp_principal,
    "icp.account_id": icp_account_id,
}


def handle(request):
    op = request.get("op")
    if op == "hello":
        return {"result": {"name": "python (pyrlp, eth-account, python-mnemonic, ic-py)", "ops": sorted(OPS)}}
    if op not in OPS:
        return {"unsupported": True, "reason": "unknown operation %s" % op}
    try:
        return {"result": OPS[op](request.get("input", {}))}
    except Unsupported as error:
        return {"unsupported": True, "reason": str(error)}
    except BaseException as error:  # every library failure is an answer: the input was rejected
        if isinstance(error, (KeyboardInterrupt, SystemExit)):
            raise
        return {"error": "%s: %s" % (type(error).__name__, error)}


def main():
    sys.setrecursionlimit(10000)
    # Hostile vectors (Candid space bombs) make ic-py allocate without bound: cap the address space at 2 GiB so
    # they end in MemoryError (an error response) instead of exhausting the machine.
    limit = 2 << 30
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    for line in sys.stdin:
        if not line.strip():
            continue
        request = json.loads(line)
        response = handle(request)
        response["id"] = request.get("id")
        text = json.dumps(response, ensure_ascii=False)
        if len(text) > MAX_RESPONSE:
            # Still a result (the library accepted the input), without megabytes of decoded space bomb.
            text = json.dumps({"id": request.get("id"), "result": {"truncated": True, "length": len(text)}})
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
