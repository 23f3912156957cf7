#!/usr/bin/env python3
"""Generates Vectors/generated/keystores.json: keystores that real apps write and other wallets misread.

* web3swift: `EthereumKeystoreV3` (web3swift/web3swift, Sources/Web3Core/KeystoreManager/EthereumKeystoreV3.swift)
  writes `"cipher": "aes-128-cbc"` by default, CryptoSwift CBC with `.noPadding` (a 32-byte key is two whole
  blocks), scrypt n=4096 r=6 p=1 dklen=32 with a 32-byte salt, MAC keccak256(dk[16:32] + ciphertext), and a
  lowercase "0x" address. Built here with pycryptodome's AES-CBC and hashlib's scrypt/PBKDF2, plus a PKCS#7-padded
  variant (48-byte ciphertext) and a PBKDF2 one. For each, `eth_keyfile_reads` records the key eth-keyfile (what
  eth-account and web3.py use) returns: it decrypts as aes-128-ctr whatever the file says, so it is wrong.
* geth: the `31_byte_key` and `30_byte_key` cases of ethereum/go-ethereum
  accounts/keystore/testdata/v3_test_vector.json (commit 19476a97835bd2f797dc05064e9037f9d8cc8aad, LGPL-3.0),
  copied verbatim; geth reads the plaintext as a big-endian number, i.e. left-padded to 32 bytes.
* Klaytn: keystore v4 files (KIP-3, klaytn/kips KIPs/kip-3-keystore-format-v4.md, CC0) in the single, multiple
  and role-based forms. Every `crypto` entry is checked by decrypting it with eth-keyfile as a v3 file.

Seeded, so a rerun writes the same file. Needs pycryptodome and eth-keyfile (scripts/requirements.txt, via web3).
"""
import hashlib
import json
import random

from Crypto.Cipher import AES
from Crypto.Hash import keccak
from Crypto.Util import Counter
from eth_keyfile import decode_keyfile_json
from eth_keys import keys as eth_keys

rng = random.Random(20260521)
SECP256K1_N = 0xFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141


def keccak256(data: bytes) -> bytes:
    return keccak.new(digest_bits=256, data=data).digest()


def private_key(label: str) -> bytes:
    key = keccak256(b"sandnet keystore vector " + label.encode())
    assert 0 < int.from_bytes(key, "big") < SECP256K1_N
    return key


def address(key: bytes) -> str:
    return eth_keys.PrivateKey(key).public_key.to_checksum_address().lower()


def derive(password: bytes, kdf: dict) -> bytes:
    salt = bytes.fromhex(kdf["salt"])
    if "n" in kdf:
        return hashlib.scrypt(password, salt=salt, n=kdf["n"], r=kdf["r"], p=kdf["p"], dklen=kdf["dklen"],
                              maxmem=256 * 1024 * 1024)
    return hashlib.pbkdf2_hmac("sha256", password, salt, kdf["c"], kdf["dklen"])


def scrypt_params(n: int, r: int, p: int) -> dict:
    return {"salt": rng.randbytes(32).hex(), "dklen": 32, "n": n, "p": p, "r": r}


def pbkdf2_params(c: int) -> dict:
    return {"c": c, "dklen": 32, "prf": "hmac-sha256", "salt": rng.randbytes(32).hex()}


def crypto(key: bytes, password: bytes, kdf: dict, cipher: str, padding: str = "none") -> dict:
    dk = derive(password, kdf)
    iv = rng.randbytes(16)
    if cipher == "aes-128-ctr":
        counter = Counter.new(128, initial_value=int.from_bytes(iv, "big"))
        ciphertext = AES.new(dk[:16], AES.MODE_CTR, counter=counter).encrypt(key)
    else:
        plaintext = key
        if padding == "pkcs7":
            pad = 16 - len(key) % 16
            plaintext = key + bytes([pad]) * pad
        ciphertext = AES.new(dk[:16], AES.MODE_CBC, iv).encrypt(plaintext)
    kdf_name = "scrypt" if "n" in kdf else "pbkdf2"
    return {
        "ciphertext": ciphertext.hex(), "cipher": cipher, "cipherparams": {"iv": iv.hex()}, "kdf": kdf_name,
        "kdfparams": kdf, "mac": keccak256(dk[16:32] + ciphertext).hex(),
    }


def uuid() -> str:
    h = rng.randbytes(16).hex()
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def eth_keyfile_reads(crypto_section: dict, password: bytes) -> str:
    """What eth-keyfile (eth-account, web3.py) returns for a v3 file with this `crypto`."""
    return decode_keyfile_json({"version": 3, "crypto": crypto_section}, password).hex()


cases = {}

# web3swift EthereumKeystoreV3 exactly as it writes (defaults) and two variants other CBC writers produce.
web3swift = [
    ("web3swift_default_scrypt", scrypt_params(4096, 6, 1), "none"),
    ("web3swift_pbkdf2", pbkdf2_params(4096), "none"),
    ("cbc_pkcs7_padded_scrypt", scrypt_params(1024, 8, 1), "pkcs7"),
]
for name, kdf, padding in web3swift:
    key = private_key(name)
    password = ("web3swift " + name).encode()
    section = crypto(key, password, kdf, "aes-128-cbc", padding)
    misread = eth_keyfile_reads(section, password)
    assert misread != key.hex(), "eth-keyfile was expected to misread a CBC file"
    cases[name] = {
        "json": {"address": "0x" + address(key)[2:], "crypto": section, "id": uuid(), "version": 3},
        "password": password.decode(),
        "priv": key.hex(),
        "eth_keyfile_reads": misread,
    }

# geth accounts/keystore/testdata/v3_test_vector.json, commit 19476a97835bd2f797dc05064e9037f9d8cc8aad (verbatim).
geth = {
    "31_byte_key": {
        "json": {
            "crypto": {
                "cipher": "aes-128-ctr",
                "cipherparams": {"iv": "e0c41130a323adc1446fc82f724bca2f"},
                "ciphertext": "9517cd5bdbe69076f9bf5057248c6c050141e970efa36ce53692d5d59a3984",
                "kdf": "scrypt",
                "kdfparams": {"dklen": 32, "n": 2, "r": 8, "p": 1,
                              "salt": "711f816911c92d649fb4c84b047915679933555030b3552c1212609b38208c63"},
                "mac": "d5e116151c6aa71470e67a7d42c9620c75c4d23229847dcc127794f0732b0db5",
            },
            "id": "fecfc4ce-e956-48fd-953b-30f8b52ed66c",
            "version": 3,
        },
        "password": "foo",
        "priv": "fa7b3db73dc7dfdf8c5fbdb796d741e4488628c41fc4febd9160a866ba0f35",
    },
    "30_byte_key": {
        "json": {
            "crypto": {
                "cipher": "aes-128-ctr",
                "cipherparams": {"iv": "3ca92af36ad7c2cd92454c59cea5ef00"},
                "ciphertext": "108b7d34f3442fc26ab1ab90ca91476ba6bfa8c00975a49ef9051dc675aa",
                "kdf": "scrypt",
                "kdfparams": {"dklen": 32, "n": 2, "r": 8, "p": 1,
                              "salt": "d0769e608fb86cda848065642a9c6fa046845c928175662b8e356c77f914cd3b"},
                "mac": "75d0e6759f7b3cefa319c3be41680ab6beea7d8328653474bd06706d4cc67420",
            },
            "id": "a37e1559-5955-450d-8075-7b8931b392b2",
            "version": 3,
        },
        "password": "foo",
        "priv": "81c29e8142bb6a81bef5a92bda7a8328a5c85bb2f9542e76f9b0f94fc018",
    },
}
for name, case in geth.items():
    raw = decode_keyfile_json(case["json"], case["password"].encode()).hex()
    assert raw == case["priv"], name
    case["padded_priv"] = case["priv"].rjust(64, "0")
    cases[name] = case

# Klaytn keystore v4 (KIP-3). The account address is recorded, not derived (Klaytn decouples the two).
klaytn_forms = {
    "klaytn_v4_single": [["single-0"]],
    "klaytn_v4_multiple": [["multi-0", "multi-1", "multi-2"]],
    "klaytn_v4_role_based": [["role-tx-0"], [], ["role-fee-0", "role-fee-1"]],
    "klaytn_v4_role_based_all_roles": [["all-tx-0", "all-tx-1"], ["all-update-0"], ["all-fee-0"]],
}
for name, labels in klaytn_forms.items():
    password = ("klaytn " + name).encode()
    role_based = "role_based" in name
    keyring = []
    expected = []
    for position, role in enumerate(labels):
        entries, keys = [], []
        for index, label in enumerate(role):
            key = private_key(label)
            kdf = pbkdf2_params(1024) if (position + index) % 2 else scrypt_params(4096, 8, 1)
            section = crypto(key, password, kdf, "aes-128-ctr")
            assert eth_keyfile_reads(section, password) == key.hex(), label
            entries.append(section)
            keys.append(key.hex())
        keyring.append(entries)
        expected.append(keys)
    if not role_based:
        keyring, expected = keyring[0], expected[0]
    account = "0x" + rng.randbytes(20).hex()
    cases[name] = {
        "json": {"version": 4, "id": uuid(), "address": account, "keyring": keyring},
        "password": password.decode(),
        "keys": expected,
    }

with open("Vectors/generated/keystores.json", "w") as out:
    json.dump({
        "generator": "scripts/generate-keystore-vectors.py (pycryptodome AES, hashlib scrypt/PBKDF2, eth-keyfile "
                     "cross-checks)",
        "sources": {
            "web3swift": "web3swift/web3swift Sources/Web3Core/KeystoreManager/EthereumKeystoreV3.swift (aes-128-cbc,"
                         " .noPadding, scrypt n=4096 r=6 p=1)",
            "geth": "ethereum/go-ethereum accounts/keystore/testdata/v3_test_vector.json @ "
                    "19476a97835bd2f797dc05064e9037f9d8cc8aad (LGPL-3.0): 31_byte_key, 30_byte_key, verbatim",
            "klaytn": "klaytn/kips KIPs/kip-3-keystore-format-v4.md (CC0)",
        },
        "cases": cases,
    }, out, indent=1)
    out.write("\n")
print(len(cases), "cases")
