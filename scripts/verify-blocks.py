#!/usr/bin/env python3
"""Re-verify the real-block vectors in Vectors/generated/blocks.json.

For every block:
  * hash          == keccak256(rlp(header fields in canonical order))
  * transactions  -> ordered-trie root == header.transactionsRoot (and keccak(raw) are unique tx hashes)
  * receipts      -> ordered-trie root == header.receiptsRoot
  * withdrawals   -> ordered-trie root == header.withdrawalsRoot
  * requests      -> sha256(concat(sha256(r))) == header.requestsHash  (EIP-7685)

Self-contained: RLP and the Merkle-Patricia ordered-trie root are implemented
below. Only a keccak-256 implementation is needed: pycryptodome
(`pip install pycryptodome`) or eth-hash / pysha3 as fallbacks.

Usage: python3 scripts/verify-blocks.py [path/to/blocks.json]
Exit status 0 if everything verifies, 1 otherwise.

With --rpc URL [FIRST [LAST]] it instead reads blocks FIRST..LAST (default: all) from a running node (Sandnet)
over JSON-RPC and recomputes them with third-party libraries only, none of the code above: py-trie's
HexaryTrie for the receipts and transactions roots, eth-utils' keccak for block hashes and the logs blooms of
every receipt and header (Yellow Paper 4.3.1), pyrlp for the encodings, and eth-abi to decode every ERC-20
Transfer/Approval log (topics and data). Needs the packages of scripts/requirements.txt (scripts/bootstrap).
"""
import hashlib
import json
import os
import sys


def _keccak_impl():
    try:
        from Crypto.Hash import keccak as _k  # pycryptodome

        return lambda data: _k.new(digest_bits=256, data=data).digest()
    except ImportError:
        pass
    try:
        from eth_hash.auto import keccak as _k  # eth-hash

        return lambda data: _k(data)
    except ImportError:
        pass
    try:
        import sha3  # pysha3

        return lambda data: sha3.keccak_256(data).digest()
    except ImportError:
        sys.exit("need a keccak-256 implementation: pip install pycryptodome")


keccak = _keccak_impl()

# ---------------------------------------------------------------- RLP

def _len_prefix(length, offset):
    if length < 56:
        return bytes([offset + length])
    lb = length.to_bytes((length.bit_length() + 7) // 8, "big")
    return bytes([offset + 55 + len(lb)]) + lb


def rlp(item):
    """Encode bytes / int / list."""
    if isinstance(item, int):
        if item < 0:
            raise ValueError("negative int")
        item = b"" if item == 0 else item.to_bytes((item.bit_length() + 7) // 8, "big")
    if isinstance(item, (bytes, bytearray)):
        item = bytes(item)
        if len(item) == 1 and item[0] < 0x80:
            return item
        return _len_prefix(len(item), 0x80) + item
    if isinstance(item, list):
        payload = b"".join(rlp(x) for x in item)
        return _len_prefix(len(payload), 0xC0) + payload
    raise TypeError(type(item))


# ---------------------------------------------------------------- MPT root

def _hp(nibbles, leaf):
    flag = 2 if leaf else 0
    if len(nibbles) % 2:
        return bytes([(flag + 1) * 16 + nibbles[0]]) + bytes(
            nibbles[i] * 16 + nibbles[i + 1] for i in range(1, len(nibbles), 2))
    return bytes([flag * 16]) + bytes(
        nibbles[i] * 16 + nibbles[i + 1] for i in range(0, len(nibbles), 2))


def _node(pairs, depth):
    """Return the RLP structure (python list) of the node for sorted (nibbles, value) pairs."""
    if len(pairs) == 1:
        k, v = pairs[0]
        return [_hp(k[depth:], True), v]
    # common prefix among all keys beyond depth
    first, last = pairs[0][0], pairs[-1][0]
    cp = 0
    while (depth + cp < len(first) and depth + cp < len(last)
           and first[depth + cp] == last[depth + cp]):
        cp += 1
    if cp:
        return [_hp(first[depth:depth + cp], False), _ref(_node(pairs, depth + cp))]
    branch = [b""] * 17
    i = 0
    if len(pairs[0][0]) == depth:
        branch[16] = pairs[0][1]
        i = 1
    while i < len(pairs):
        nib = pairs[i][0][depth]
        j = i
        while j < len(pairs) and pairs[j][0][depth] == nib:
            j += 1
        branch[nib] = _ref(_node(pairs[i:j], depth + 1))
        i = j
    return branch


def _ref(node):
    enc = rlp(node)
    return node if len(enc) < 32 else keccak(enc)



def trie_root(kv):
    """Root hash of a Merkle-Patricia trie holding the given {key_bytes: value_bytes}."""
    if not kv:
        return keccak(rlp(b""))
    pairs = sorted(([n for byte in k for n in (byte >> 4, byte & 15)], v) for k, v in kv.items())
    return keccak(rlp(_node(pairs, 0)))


def ordered_root(values):
    return trie_root({rlp(i): v for i, v in enumerate(values)})


# ---------------------------------------------------------------- header

ORDER = ["parentHash", "sha3Uncles", "miner", "stateRoot", "transactionsRoot", "receiptsRoot",
         "logsBloom", "difficulty", "number", "gasLimit", "gasUsed", "timestamp", "extraData",
         "mixHash", "nonce", "baseFeePerGas", "withdrawalsRoot", "blobGasUsed", "excessBlobGas",
         "parentBeaconBlockRoot", "requestsHash"]
QUANTITIES = {"difficulty", "number", "gasLimit", "gasUsed", "timestamp", "baseFeePerGas",
              "blobGasUsed", "excessBlobGas"}
FIXED = {"parentHash": 32, "sha3Uncles": 32, "miner": 20, "stateRoot": 32, "transactionsRoot": 32,
         "receiptsRoot": 32, "logsBloom": 256, "mixHash": 32, "nonce": 8, "withdrawalsRoot": 32,
         "parentBeaconBlockRoot": 32, "requestsHash": 32}


def unhex(s):
    assert s.startswith("0x"), s
    return bytes.fromhex(s[2:])


def header_items(h):
    present = [k in h for k in ORDER]
    n = present.index(False) if False in present else len(ORDER)
    if any(present[n:]):
        raise ValueError("optional header fields are not a contiguous suffix")
    unknown = set(h) - set(ORDER)
    if unknown:
        raise ValueError("unknown header fields: %s" % sorted(unknown))
    items = []
    for k in ORDER[:n]:
        v = h[k]
        if k in QUANTITIES:
            if v != hex(int(v, 16)):
                raise ValueError("%s is not a minimal 0x quantity: %s" % (k, v))
            items.append(int(v, 16))
        else:
            b = unhex(v)
            if k in FIXED and len(b) != FIXED[k]:
                raise ValueError("%s has %d bytes, want %d" % (k, len(b), FIXED[k]))
            items.append(b)
    return items


def hx(b):
    return "0x" + b.hex()


def verify_block(blk):
    h = blk["header"]
    results = []

    def check(what, got, want):
        ok = got == want
        results.append((what, ok, got, want))

    check("hash", hx(keccak(rlp(header_items(h)))), blk["hash"])
    if "transactions" in blk:
        raws = [unhex(t) for t in blk["transactions"]]
        check("transactionsRoot (%d txs)" % len(raws), hx(ordered_root(raws)), h["transactionsRoot"])
        hashes = {keccak(r) for r in raws}
        check("distinct tx hashes", len(hashes), len(raws))
    if "receipts" in blk:
        raws = [unhex(r) for r in blk["receipts"]]
        check("receiptsRoot (%d receipts)" % len(raws), hx(ordered_root(raws)), h["receiptsRoot"])
        if "transactions" in blk:
            check("#receipts == #transactions", len(raws), len(blk["transactions"]))
    if "withdrawals" in blk:
        raws = [unhex(w) for w in blk["withdrawals"]]
        check("withdrawalsRoot (%d withdrawals)" % len(raws), hx(ordered_root(raws)), h["withdrawalsRoot"])
    if "requests" in blk:
        acc = hashlib.sha256()
        for r in blk["requests"]:
            rb = unhex(r)
            if len(rb) <= 1:
                raise ValueError("empty requests must be omitted")
            acc.update(hashlib.sha256(rb).digest())
        check("requestsHash (%d non-empty request types)" % len(blk["requests"]),
              hx(acc.digest()), h["requestsHash"])
    return results


def _selftest():
    # well-known constants
    assert hx(keccak(rlp([]))) == "0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347"
    assert hx(ordered_root([])) == "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
    assert hx(hashlib.sha256(b"").digest()) == "0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    # classic trie vector (ethereum/tests TrieTests "dogs")
    root = trie_root({b"doe": b"reindeer", b"dog": b"puppy", b"dogglesworth": b"cat"})
    assert hx(root) == "0x8aad789dff2f538bca5d8ea56e8abe10f4c7ba3a5dea95fea4cd6e7c3a1168d3", hx(root)


# ---------------------------------------------------------------- --rpc: third-party recomputation

def _rpc(url, method, *params):
    import urllib.request

    body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
    req = urllib.request.Request(url, body, {"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as resp:
        reply = json.load(resp)
    if "error" in reply:
        raise RuntimeError("%s: %s" % (method, reply["error"]))
    return reply["result"]


def third_party_bloom(logs):
    """The 2048-bit bloom of `logs` (address and topics), computed with eth-utils' keccak."""
    from eth_utils import keccak as k

    bloom = 0
    for log in logs:
        for item in [unhex(log["address"])] + [unhex(t) for t in log["topics"]]:
            h = k(item)
            for i in (0, 2, 4):
                bloom |= 1 << (((h[i] << 8) | h[i + 1]) & 2047)
    return bloom.to_bytes(256, "big")


def third_party_receipt(r):
    """The receipts-trie value of a JSON receipt (EIP-2718: type byte, then the RLP list), with pyrlp."""
    import rlp as pyrlp

    logs = [[unhex(l["address"]), [unhex(t) for t in l["topics"]], unhex(l["data"])] for l in r["logs"]]
    body = pyrlp.encode([int(r["status"], 16), int(r["cumulativeGasUsed"], 16), unhex(r["logsBloom"]), logs])
    kind = int(r.get("type", "0x0"), 16)
    return body if kind == 0 else bytes([kind]) + body


def third_party_root(values):
    """The ordered trie root of `values` with py-trie's HexaryTrie (keys rlp(index))."""
    import rlp as pyrlp
    from trie import HexaryTrie

    t = HexaryTrie(db={})
    for i, v in enumerate(values):
        t[pyrlp.encode(i)] = v
    return t.root_hash


TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
APPROVAL = "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925"


def verify_rpc_block(url, number):
    """Checks one block of a running node; returns [(what, ok, got, want)]."""
    import rlp as pyrlp
    from eth_abi import decode as abi_decode
    from eth_utils import keccak as k

    results = []

    def check(what, got, want):
        results.append((what, got == want, got, want))

    blk = _rpc(url, "eth_getBlockByNumber", hex(number), False)
    header = {key: blk[key] for key in ORDER if key in blk}
    check("hash (eth-utils keccak of pyrlp header)", hx(k(pyrlp.encode(header_items(header)))), blk["hash"])
    raws = [unhex(_rpc(url, "eth_getRawTransactionByHash", t)) for t in blk["transactions"]]
    check("transactionsRoot (py-trie, %d txs)" % len(raws), hx(third_party_root(raws)), blk["transactionsRoot"])
    receipts = [_rpc(url, "eth_getTransactionReceipt", t) for t in blk["transactions"]]
    check("receiptsRoot (py-trie, %d receipts)" % len(receipts),
          hx(third_party_root([third_party_receipt(r) for r in receipts])), blk["receiptsRoot"])
    block_bloom = 0
    log_index = 0
    for i, r in enumerate(receipts):
        bloom = third_party_bloom(r["logs"])
        check("receipt %d logsBloom (eth-utils)" % i, hx(bloom), r["logsBloom"])
        block_bloom |= int.from_bytes(bloom, "big")
        for log in r["logs"]:
            check("receipt %d log %d fields" % (i, log_index),
                  (log["blockHash"], log["blockNumber"], log["transactionHash"], log["transactionIndex"], log["logIndex"]),
                  (blk["hash"], blk["number"], r["transactionHash"], r["transactionIndex"], hex(log_index)))
            log_index += 1
            if log["topics"] and log["topics"][0] in (TRANSFER, APPROVAL):
                # eth-abi: two indexed addresses and a uint256 of data, exactly.
                a, = abi_decode(["address"], unhex(log["topics"][1]))
                b, = abi_decode(["address"], unhex(log["topics"][2]))
                value, = abi_decode(["uint256"], unhex(log["data"]), strict=True)
                check("receipt %d ERC-20 log decodes (eth-abi)" % i, (len(log["topics"]), len(unhex(log["data"]))), (3, 32))
    check("header logsBloom = OR of receipts", hx(block_bloom.to_bytes(256, "big")), blk["logsBloom"])
    return results


def main_rpc(argv):
    url = argv[0]
    last = int(argv[2]) if len(argv) > 2 else int(_rpc(url, "eth_blockNumber"), 16)
    first = int(argv[1]) if len(argv) > 1 else 0
    all_ok = True
    for number in range(first, last + 1):
        print("== block %d" % number)
        for what, ok, got, want in verify_rpc_block(url, number):
            print("   %-4s %s" % ("ok" if ok else "FAIL", what) + ("" if ok else "  got %s want %s" % (got, want)))
            all_ok &= ok
    print("ALL OK" if all_ok else "SOME CHECKS FAILED")
    return 0 if all_ok else 1


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--rpc":
        return main_rpc(sys.argv[2:])
    here = os.path.dirname(os.path.abspath(__file__))
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "Vectors", "generated", "blocks.json")
    _selftest()
    data = json.load(open(path))
    all_ok = True
    for blk in data["blocks"]:
        print("== %s  (#%d)  %s" % (blk["name"], int(blk["header"]["number"], 16), blk.get("source", "")))
        try:
            res = verify_block(blk)
        except Exception as e:  # malformed vector
            print("   ERROR", e)
            all_ok = False
            continue
        for what, ok, got, want in res:
            print("   %-4s %s" % ("ok" if ok else "FAIL", what) + ("" if ok else "  got %s want %s" % (got, want)))
            all_ok &= ok
    print("ALL OK" if all_ok else "SOME CHECKS FAILED")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main())
