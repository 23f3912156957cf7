#!/usr/bin/env python3
"""Pre-signs EIP-1559 transfers from the first N dev accounts (Anvil mnemonic) for the wrk load test:
writes one JSON-RPC eth_sendRawTransaction body per line, interleaved by account so every account's nonces
arrive in order within each wrk thread. Usage: make-transfers.py ACCOUNTS NONCES OUT"""
import json
import sys

from eth_account import Account

Account.enable_unaudited_hdwallet_features()
MNEMONIC = "test test test test test test test test test test test junk"
accounts, nonces, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
keys = [Account.from_mnemonic(MNEMONIC, account_path=f"m/44'/60'/0'/0/{i}") for i in range(accounts)]
with open(out, "w") as f:
    for nonce in range(nonces):
        for i, acct in enumerate(keys):
            tx = {"type": 2, "chainId": 11155111, "nonce": nonce, "to": "0x000000000000000000000000000000000000dEaD",
                  "value": 1, "gas": 21000, "maxFeePerGas": 100 * 10**9, "maxPriorityFeePerGas": 10**9}
            raw = acct.sign_transaction(tx)
            raw = getattr(raw, "raw_transaction", None) or raw.rawTransaction
            body = {"jsonrpc": "2.0", "id": i, "method": "eth_sendRawTransaction", "params": ["0x" + raw.hex().removeprefix("0x")]}
            f.write(json.dumps(body, separators=(",", ":")) + "\n")
