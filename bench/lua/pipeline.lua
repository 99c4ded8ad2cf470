-- Sends `depth` requests per write (pipelining), for measuring the server's
-- own limit when a plain keep-alive client would be the bound.
local depth = tonumber(os.getenv("BATON_PIPELINE_DEPTH") or "16")
init = function(args)
  local r = {}
  for i = 1, depth do r[i] = wrk.format(nil, wrk.path) end
  req = table.concat(r)
end
request = function() return req end
-- The JSON summary the harness reads, shared with summary.lua.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
dofile(here .. "summary.lua")
