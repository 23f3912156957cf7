-- wrk script: POSTs pre-signed eth_sendRawTransaction bodies (one per line of $TRANSFERS), each wrk
-- thread taking every Nth line so that per-account nonce order is kept within a thread.
local bodies = {}
local counter = 0
local threads = {}

function setup(thread)
  thread:set("id", counter)
  table.insert(threads, thread)
  counter = counter + 1
end

function init(args)
  local file = os.getenv("TRANSFERS") or "/tmp/sandnet-transfers.jsonl"
  local n = 0
  local stride = tonumber(os.getenv("THREADS") or "2")
  for line in io.lines(file) do
    if n % stride == id then table.insert(bodies, line) end
    n = n + 1
  end
  index = 0
  errors = 0
  wrk.method = "POST"
  wrk.headers["Content-Type"] = "application/json"
end

function request()
  index = index + 1
  if index > #bodies then index = 1 end
  return wrk.format(nil, "/", nil, bodies[index])
end

function response(status, headers, body)
  if status ~= 200 or string.find(body, '"error"') then errors = errors + 1 end
end

function done(summary, latency, requests)
  -- Per-thread error counters are not visible here; check txpool_status and eth_blockNumber afterwards.
  io.write(string.format("requests: %d (errors per thread are not aggregated by wrk)\n", summary.requests))
end
