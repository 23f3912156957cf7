-- wrk script: POSTs one CBOR query envelope (from make-icp-query.py, file $ICP_BODY) to the IC HTTP interface.
local file = io.open(os.getenv("ICP_BODY") or "/tmp/icp-query.cbor", "rb")
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/cbor"
wrk.body = file:read("*a")
file:close()

function done(summary, latency, requests)
  io.write(string.format("icrc1_balance_of queries: %d requests, %d non-2xx or errors\n",
    summary.requests, summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
