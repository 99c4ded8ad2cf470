-- Ends wrk once BATON_REQUESTS responses came back (run it with -t1), so a
-- run is a number of requests rather than a duration: wrk's main thread
-- sleeps out -d even after a thread stops, so the process exits here.
local limit = tonumber(os.getenv("BATON_REQUESTS") or "600000")
local seen, bad = 0, 0
response = function(status, headers, body)
  seen = seen + 1
  if status ~= 200 then bad = bad + 1 end
  if seen >= limit then
    io.write(string.format("BATON-COUNT responses=%d non200=%d\n", seen, bad))
    io.flush()
    os.exit(0)
  end
end
