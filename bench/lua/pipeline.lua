-- Sends `depth` requests per write (pipelining), for measuring the server's
-- own limit when a plain keep-alive client would be the bound.
local depth = tonumber(os.getenv("BATON_PIPELINE_DEPTH") or "16")
init = function(args)
  local r = {}
  for i = 1, depth do r[i] = wrk.format(nil, wrk.path) end
  req = table.concat(r)
end
request = function() return req end
-- Prints wrk's results as one JSON line (after a marker) for the harness.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write("BATON-WRK-JSON ")
  io.write(string.format(
    '{"requests": %d, "duration_us": %d, "bytes": %d, "errors": {"connect": %d, "read": %d, "write": %d, ' ..
    '"status": %d, "timeout": %d}, "latency_us": {"p50": %d, "p90": %d, "p99": %d, "p999": %d, "max": %d, ' ..
    '"mean": %.1f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.max, latency.mean))
end
