#!/usr/bin/env python3
"""Generates Vectors/generated/trie.json with py-trie (PyPI `trie`, the Ethereum Foundation's reference
hexary trie): sequences of puts and deletes and the root hash after each sequence. Seeded, reproducible."""
import json, random
from trie import HexaryTrie

rng = random.Random(20261122)
cases = []
for n in [1, 2, 3, 5, 16, 17, 100, 500]:
    for mode in ["random", "shared-prefix", "secure", "with-deletes"]:
        t = HexaryTrie(db={})
        ops = []
        keys = []
        for i in range(n):
            if mode == "shared-prefix":
                k = b"key" + bytes([rng.randrange(4) for _ in range(rng.randrange(0, 4))]) + bytes([i % 7])
            elif mode == "secure":
                k = bytes(rng.randrange(256) for _ in range(32))
            else:
                k = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 6)))
            v = bytes(rng.randrange(256) for _ in range(rng.choice([1, 3, 31, 32, 33, 70])))
            t[k] = v
            keys.append(k)
            ops.append(["put", k.hex(), v.hex()])
        if mode == "with-deletes":
            for k in rng.sample(keys, len(keys) // 2):
                if k in t:
                    del t[k]
                ops.append(["delete", k.hex()])
        cases.append({"name": f"{mode}-{n}", "ops": ops, "root": t.root_hash.hex()})
json.dump({"generator": "scripts/generate-trie-vectors.py (py-trie HexaryTrie)", "cases": cases},
          open("Vectors/generated/trie.json", "w"), indent=1)
print(len(cases), "cases")
