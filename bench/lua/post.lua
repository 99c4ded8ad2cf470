-- POSTs a body of BATON_POST_SIZE bytes on every request.
wrk.method = "POST"
wrk.body = string.rep("x", tonumber(os.getenv("BATON_POST_SIZE") or "1048576"))
wrk.headers["Content-Type"] = "application/octet-stream"
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
