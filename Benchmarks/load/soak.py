#!/usr/bin/env python3
"""Memory soak: runs `sandnet node --block-time 1` under steady load (faucet claims and balance reads at a
fixed rate) for DURATION seconds and prints the node's resident memory every 30 s.
Usage: soak.py SANDNET_BINARY DURATION_SECONDS"""
import json
import subprocess
import sys
import tempfile
import time
import urllib.request

binary, duration = sys.argv[1], int(sys.argv[2])
data_dir = tempfile.mkdtemp(prefix="sandnet-soak-")
node = subprocess.Popen([binary, "node", "--port", "0", "--json-log", "--block-time", "1", "--data-dir", data_dir],
                        stdout=subprocess.PIPE, text=True)
url = json.loads(node.stdout.readline())["rpcUrl"]


def rpc(method, params):
    req = urllib.request.Request(url, data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def rss_mb():
    with open(f"/proc/{node.pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024


start = time.time()
next_report = start
samples = []
requests = 0
i = 0
while time.time() - start < duration:
    i += 1
    address = "0x" + format(i % 5000 + 1, "040x")
    rpc("sandnet_faucet", [address, "0x1"])
    for _ in range(9):
        rpc("eth_getBalance", [address, "latest"])
    requests += 10
    if time.time() >= next_report:
        sample = rss_mb()
        samples.append(sample)
        block = int(rpc("eth_blockNumber", [])["result"], 16)
        print(f"t={time.time() - start:6.0f}s rss={sample:7.1f} MB block={block} requests={requests}", flush=True)
        next_report += 30
    time.sleep(0.01)
node.terminate()
node.wait()
warm = samples[2:] or samples
print(f"rss after warm-up: min {min(warm):.1f} MB, max {max(warm):.1f} MB, spread {100 * (max(warm) - min(warm)) / min(warm):.1f}%")
