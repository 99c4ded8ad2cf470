-- POSTs a body of BATON_POST_SIZE bytes on every request.
wrk.method = "POST"
wrk.body = string.rep("x", tonumber(os.getenv("BATON_POST_SIZE") or "1048576"))
wrk.headers["Content-Type"] = "application/octet-stream"
-- The JSON summary the harness reads, shared with summary.lua.
local here = debug.getinfo(1, "S").source:sub(2):match("(.*/)") or "./"
dofile(here .. "summary.lua")
