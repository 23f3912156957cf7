#!/usr/bin/env python3
"""Memory soak: runs `sandnet node --block-time 1` under steady load (faucet claims and balance reads at a
fixed rate) for DURATION seconds and prints the node's resident memory every --every seconds (30), with its
anonymous (heap) and file-backed parts.

Verdict: the first sample taken after --warm-up seconds (60) is the baseline; every later sample must stay within
±--tolerance percent (10) of it. Exit status 0: flat; 1: RSS not flat (the samples and the limit are printed);
2: the run was too short to take a baseline and a later sample.
With --transactions-per-second R (issue 17's one-hour figure: 300), R faucet transfers a second are sent besides
(paced by 8 threads, to the same 5,000 rotating addresses) and --max-rss M makes any sample above M MB fail too.
Usage: soak.py SANDNET_BINARY DURATION_SECONDS [--warm-up 60] [--every 30] [--tolerance 10]
               [--transactions-per-second R] [--max-rss MB]
       soak.py --self-test      # checks the verdict on made-up flat and growing samples"""
import argparse
import contextlib
import io
import json
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


def verdict(samples, warm_up, tolerance, max_rss=None, what="RSS"):
    """(exit status, message) for samples [(seconds, MB)]: flat when every sample after the baseline (the first
    at or after warm_up seconds) is within ±tolerance percent of it."""
    warm = [mb for t, mb in samples if t >= warm_up]
    if len(warm) < 2:
        return 2, f"too short: {len(warm)} sample(s) after the {warm_up:.0f} s warm-up; need 2"
    baseline = warm[0]
    low, high = min(warm), max(warm)
    worst = max(abs(high - baseline), abs(baseline - low)) / baseline * 100
    summary = (f"{what} after warm-up: baseline {baseline:.1f} MB, min {low:.1f} MB, max {high:.1f} MB, "
               f"largest deviation {worst:.1f}% (limit ±{tolerance:.0f}%)")
    if max_rss is not None and high > max_rss:
        return 1, f"FAIL: {what} above {max_rss:.0f} MB: " + summary
    return (0, "FLAT: " + summary) if worst <= tolerance else (1, f"FAIL: {what} is not flat: " + summary)



def parse(argv):
    """The command line, each number checked against its range (argparse exits 2 naming the limit)."""
    parser = argparse.ArgumentParser(description="Memory soak of `sandnet node`; fails when RSS is not flat.")
    parser.add_argument("binary")
    parser.add_argument("duration", type=int)
    parser.add_argument("--warm-up", type=float, default=60, help="seconds before the baseline sample (60)")
    parser.add_argument("--every", type=float, default=30, help="seconds between samples (30)")
    parser.add_argument("--tolerance", type=float, default=10, help="allowed deviation from the baseline, percent (10)")
    parser.add_argument("--transactions-per-second", type=float, default=0,
                        help="extra faucet transfers a second, paced by 8 threads (0: none)")
    parser.add_argument("--max-rss", type=float, default=None,
                        help="fail when any sample after warm-up exceeds this, MB")
    arguments = parser.parse_args(argv)
    for name, value, low, high in [("duration", arguments.duration, 1, 7 * 24 * 3600),
                                   ("--warm-up", arguments.warm_up, 0, 24 * 3600),
                                   ("--every", arguments.every, 1, 3600),
                                   ("--tolerance", arguments.tolerance, 0, 1000),
                                   ("--transactions-per-second", arguments.transactions_per_second, 0, 10000)]:
        if not low <= value <= high:  # also refuses nan
            parser.error(f"{name} must be in {low}..{high}, got {value}")
    if arguments.max_rss is not None and not arguments.max_rss > 0:
        parser.error(f"--max-rss must be above 0 MB, got {arguments.max_rss}")
    return arguments


def self_test():
    """The verdict on made-up samples: growth fails, a flat run passes, a short run is inconclusive."""
    growing = [(t, 50 + t / 30) for t in range(0, 601, 30)]            # +1 MB per sample: 52 -> 70 MB
    flat = [(t, 50 + (t // 30) % 3 * 0.5) for t in range(0, 601, 30)]   # noise within 2 %
    spike = [(0, 40), (60, 50), (90, 50), (120, 56), (150, 50)]       # one sample 12 % high
    assert verdict(growing, 60, 10)[0] == 1, verdict(growing, 60, 10)
    assert verdict(flat, 60, 10)[0] == 0, verdict(flat, 60, 10)
    assert verdict(spike, 60, 10)[0] == 1, verdict(spike, 60, 10)
    assert verdict(flat[:3], 60, 10)[0] == 2, verdict(flat[:3], 60, 10)
    assert verdict(flat, 60, 10, max_rss=50.5)[0] == 1, verdict(flat, 60, 10, max_rss=50.5)    # flat but too big
    assert verdict(flat, 60, 10, max_rss=150)[0] == 0, verdict(flat, 60, 10, max_rss=150)
    assert parse(["sandnet", "600", "--transactions-per-second", "300", "--max-rss", "150"]).max_rss == 150
    for bad in [["sandnet", "0"], ["sandnet", "x"], ["sandnet", "600", "--every", "0"],
                ["sandnet", "600", "--every", "nan"], ["sandnet", "600", "--transactions-per-second", "-1"],
                ["sandnet", "600", "--transactions-per-second", "1e9"], ["sandnet", "600", "--max-rss", "0"],
                ["sandnet", "600", "--tolerance", "-5"]]:
        try:
            with contextlib.redirect_stderr(io.StringIO()):
                parse(bad)
        except SystemExit as exit:
            assert exit.code == 2, (bad, exit.code)
        else:
            raise AssertionError(f"accepted {bad}")
    print("soak.py self-test: growing RSS fails, flat RSS passes, a short run is inconclusive, bad arguments exit 2")


if sys.argv[1:] == ["--self-test"]:
    self_test()
    sys.exit(0)

arguments = parse(sys.argv[1:])
binary, duration = arguments.binary, arguments.duration
data_dir = tempfile.mkdtemp(prefix="sandnet-soak-")
node = subprocess.Popen([binary, "node", "--port", "0", "--json-log", "--block-time", "1", "--data-dir", data_dir],
                        stdout=subprocess.PIPE, text=True)
url = json.loads(node.stdout.readline())["rpcUrl"]


def rpc(method, params):
    req = urllib.request.Request(url, data=json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def memory_mb():
    """(RSS, its anonymous part: the heap and stacks, its file-backed part: the binary, libraries and the data
    directory's table files LevelDB maps), in MB, from /proc/PID/status."""
    fields = {}
    with open(f"/proc/{node.pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "RssAnon", "RssFile"):
                fields[key] = int(value.split()[0]) / 1024
    return fields["VmRSS"], fields["RssAnon"], fields["RssFile"]


start = time.time()
stop = threading.Event()
sent = [0] * 8


def paced_sender(worker, rate):
    """Faucet transfers at rate/8 a second from this thread, to addresses of its own within the 5,000."""
    interval, due, n = 8 / rate, time.time(), 0
    while not stop.is_set():
        n += 1
        rpc("sandnet_faucet", ["0x" + format((n * 8 + worker) % 5000 + 1, "040x"), "0x1"])
        sent[worker] += 1
        due += interval
        delay = due - time.time()
        if delay > 0:
            time.sleep(delay)


senders = [threading.Thread(target=paced_sender, args=(w, arguments.transactions_per_second), daemon=True)
           for w in range(8)] if arguments.transactions_per_second > 0 else []
for thread in senders:
    thread.start()
next_report = start
samples = []
anonymous_samples = []
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
        sample, anonymous, file_backed = memory_mb()
        block = int(rpc("eth_blockNumber", [])["result"], 16)
        elapsed = time.time() - start
        samples.append((elapsed, sample))
        anonymous_samples.append((elapsed, anonymous))
        print(f"t={elapsed:6.0f}s rss={sample:7.1f} MB (anonymous {anonymous:6.1f}, file-backed {file_backed:6.1f}) "
              f"block={block} requests={requests} paced={sum(sent)}", flush=True)
        next_report += arguments.every
    time.sleep(0.01)
stop.set()
for thread in senders:
    thread.join()
node.terminate()
node.wait()


status, message = verdict(samples, arguments.warm_up, arguments.tolerance, arguments.max_rss)
print(message)
# For reading the verdict, not part of it: the anonymous part alone (what the node allocated), since the file-backed
# part also counts pages of the data directory's tables that LevelDB maps and the kernel may take back.
print("not the verdict: " + verdict(anonymous_samples, arguments.warm_up, arguments.tolerance, what="anonymous RSS")[1])
sys.exit(status)
