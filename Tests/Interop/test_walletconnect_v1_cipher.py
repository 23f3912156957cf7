"""WalletConnect v1's payload cipher: pywalletconnect 1.6.2's `EncryptedTunnel` (PyPI, unmodified) computes, with the
IV fixed, exactly the vector that Tests/WalletConnectV1Tests checks Sandnet's `PayloadCipher` against, and opens it."""
import json

import pywalletconnect.enc_tunnel as enc_tunnel

KEY = bytes(range(32))
IV = bytes(range(16))
MESSAGE = (b'{"id":1,"jsonrpc":"2.0","method":"personal_sign","params":["0x48656c6c6f",'
           b'"0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"]}')
# The same constants as WalletConnectV1Tests.data / .hmac.
DATA = ("122ea308a9547e9dabbd9280e2a7c67ca82f8c2188902b7ecff3d1ba90e12a3ff0a264a4850a369b9a05f4c01ad18c29fc04b634f261be45"
        "685c78fe9d5f822fd25e9b6f992d24ffefa3597dbe8fef4b75ca2865fb6da789353936ff7a9440e079cb4ba8641c9ceb3a1a61eb05f63fea"
        "4dc923361ebd4c743340944d23daaadd")
HMAC = "a9b78ba61a1f41fe9efb8848ae2616031af03622eb5e72d125217d8a6be0827b"


def test_pywalletconnect_seals_the_swift_vector(monkeypatch):
    monkeypatch.setattr(enc_tunnel, "urandom", lambda n: IV[:n])
    payload = enc_tunnel.EncryptedTunnel(KEY).encrypt_payload(MESSAGE)
    assert payload == {"data": DATA, "hmac": HMAC, "iv": IV.hex()}


def test_pywalletconnect_opens_the_swift_vector():
    payload = json.dumps({"data": DATA, "hmac": HMAC, "iv": IV.hex()})
    assert enc_tunnel.EncryptedTunnel(KEY).decrypt_payload({"payload": payload}) == MESSAGE
