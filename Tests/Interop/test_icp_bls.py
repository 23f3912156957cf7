"""An independent check of the node's ICP certificates: rebuild the root of the certified tree (interface spec
§Certification) and verify the BLS12-381 signature by pairing with py_ecc, against the root key /api/v2/status
serves. py_ecc's high-level schemes are min-pk (G2 signatures), so the IC's min-sig scheme is assembled from its
primitives: hash_to_G1 with the IC's DST, e(sig, G2) == e(H(m), pk)."""
import hashlib
import time

import cbor2
import httpx
from py_ecc.bls.hash_to_curve import hash_to_G1
from py_ecc.bls.point_compression import decompress_G1, decompress_G2
from py_ecc.optimized_bls12_381 import G2, pairing

LEDGER = "ryjl3-tyaaa-aaaaa-aaaba-cai"
DST = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
DER_PREFIX = bytes.fromhex("308182301d060d2b0601040182dc7c0503010201060c2b0601040182dc7c05030201036100")


def domain(s):
    return bytes([len(s)]) + s


def root_hash(tree):
    kind = tree[0]
    if kind == 0:
        return hashlib.sha256(domain(b"ic-hashtree-empty")).digest()
    if kind == 1:
        return hashlib.sha256(domain(b"ic-hashtree-fork") + root_hash(tree[1]) + root_hash(tree[2])).digest()
    if kind == 2:
        return hashlib.sha256(domain(b"ic-hashtree-labeled") + tree[1] + root_hash(tree[2])).digest()
    if kind == 3:
        return hashlib.sha256(domain(b"ic-hashtree-leaf") + tree[1]).digest()
    if kind == 4:
        return tree[1]
    raise ValueError(f"not a hash tree node: {kind}")


def lookup(tree, path):
    """The leaf at `path` in a (pruned) tree, or None."""
    if not path:
        return tree[1] if tree[0] == 3 else None
    if tree[0] == 1:
        return lookup(tree[1], path) or lookup(tree[2], path)
    if tree[0] == 2 and tree[1] == path[0]:
        return lookup(tree[2], path[1:])
    return None


def bls_verify(public_key, signature, message):
    pk = decompress_G2((int.from_bytes(public_key[:48], "big"), int.from_bytes(public_key[48:], "big")))
    sig = decompress_G1(int.from_bytes(signature, "big"))
    return pairing(G2, sig) == pairing(pk, hash_to_G1(message, DST, hashlib.sha256))


def root_key(node):
    status = cbor2.loads(httpx.get(node.url + "/api/v2/status").content)
    der = status["root_key"]
    assert len(der) == 133 and der[:37] == DER_PREFIX
    return der[37:]


def read_state(node, paths):
    content = {
        "request_type": "read_state", "sender": b"\x04", "paths": paths,
        "ingress_expiry": time.time_ns() + 120 * 10**9,
    }
    response = httpx.post(
        f"{node.url}/api/v2/canister/{LEDGER}/read_state", content=cbor2.dumps({"content": content}),
        headers={"Content-Type": "application/cbor"})
    assert response.status_code == 200, response.text
    certificate = cbor2.loads(cbor2.loads(response.content)["certificate"])
    assert "delegation" not in certificate
    return certificate


def test_a_certificate_verifies_by_pairing_against_the_status_root_key(node):
    key = root_key(node)
    subnet_id = hashlib.sha224(DER_PREFIX + key).digest() + b"\x02"
    certificate = read_state(node, [[b"time"], [b"subnet", subnet_id, b"public_key"]])
    tree = certificate["tree"]
    root = root_hash(tree)
    signature = certificate["signature"]
    assert len(signature) == 48
    assert bls_verify(key, signature, domain(b"ic-state-root") + root)
    # What agents check besides the signature: /time is the node's clock (within agent-js's 5 minutes).
    certified = leb128(lookup(tree, [b"time"]))
    assert abs(certified - time.time_ns()) < 300 * 10**9
    assert lookup(tree, [b"subnet", subnet_id, b"public_key"]) == DER_PREFIX + key
    # The same signature does not verify another root (the check can fail).
    assert not bls_verify(key, signature, domain(b"ic-state-root") + hashlib.sha256(root).digest())


def leb128(data):
    value = 0
    for shift, byte in enumerate(data):
        value |= (byte & 0x7F) << (7 * shift)
        if byte < 0x80:
            break
    return value
