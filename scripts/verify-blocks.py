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


def main():
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
