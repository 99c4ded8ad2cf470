"""Named suites: which arms, workloads and connection counts, and for how long.

`make bench` runs `default`; `make bench SUITE=name` another. Each suite's
estimated time is printed as it runs.
"""

from bench.harness.runner import Settings

# Granian first: the peer to beat, in the same topology as the baton arm beside it.
GRANIAN_WSGI = ["granian-wsgi-bt1", "granian-wsgi-bt4"]
GRANIAN_ASGI = ["granian-asgi", "granian-asgi-rust"]
WSGI_PEERS = GRANIAN_WSGI + ["uwsgi-http", "uwsgi-http11", "gunicorn-sync", "gunicorn-gthread", "waitress-1",
                             "waitress-4", "socketify-wsgi", "fastpysgi", "bjoern"]
# The fastest WSGI servers in C beside baton and Granian (one process, one
# thread each): fastpysgi (libuv), bjoern (libev).
C_WSGI = ["fastpysgi", "bjoern"]
ASGI_PEERS = GRANIAN_ASGI + ["uvicorn-h11", "uvicorn-uvloop", "gunicorn-asgi", "hypercorn", "daphne",
                             "socketify-asgi"]
BATON = ["baton-inline", "baton-native"]
BATON_SHAPES = ["baton-inline", "baton-pool-1", "baton-pool-4"]
# One binary, one environment variable each: what the detached loop, the
# turn barrier and the queue (rather than the inline fallback) buy.
BATON_AB = ["baton-pool-4-noturn", "baton-pool-1-attached", "baton-pool-4-attached", "baton-pool-4-fallback"]
BATON_ASGI = ["baton-asgi-pump", "baton-asgi-pump-uvloop", "baton-asgi-inverted", "baton-asgi-inverted-uvloop"]
WSGI_APP_PEERS = GRANIAN_WSGI + ["uwsgi-http11", "gunicorn-sync", "gunicorn-gthread", "waitress-4", "socketify-wsgi"]
CEILINGS = ["nginx", "floor-c"]
# The WebSocket servers: baton's two ASGI shapes on uvloop, Granian with its
# WebSockets on, uvicorn with both of its WebSocket implementations,
# hypercorn, daphne and socketify.
WS_ARMS = ["baton-asgi-inverted-uvloop", "baton-asgi-pump-uvloop", "granian-asgi-ws", "uvicorn-ws-sansio",
           "uvicorn-wsproto", "hypercorn", "daphne", "socketify-asgi"]
WS_ECHO = [f"ws-echo-{size}{deflate}" for size in ("32", "512", "16k") for deflate in ("", "-deflate")]
APP_ARMS = ["baton-inline", "baton-asgi-inverted-uvloop", "granian-wsgi-bt1", "granian-asgi", "uwsgi-http11",
            "gunicorn-gthread", "waitress-4", "uvicorn-uvloop", "uvicorn-h11"]


def suite(name: str) -> Settings:
    if name == "default":
        # Every arm on the bare hello at three concurrencies, and the framework
        # and payload workloads at one; about 18 minutes on this machine.
        return Settings("default", BATON + WSGI_PEERS + ASGI_PEERS + CEILINGS,
                        ["hello", "flask-json", "starlette-json", "django", "64k", "post-1m"], [16, 64, 256],
                        rounds=3, duration=3, warmup=1, per_workload_connections={
                            "flask-json": [64], "starlette-json": [64], "django": [64], "64k": [64],
                            "post-1m": [16]},
                        per_workload_arms={w: APP_ARMS for w in ("flask-json", "starlette-json", "django", "64k",
                                                                 "post-1m")})
    if name == "wsgi-core":
        # The first benchmark of the WSGI core: baton's inline shape and native
        # route beside uWSGI and gunicorn sync, one process each, and the C floor
        # (and an earlier build of baton, when BATON_BASELINE_VENV names one).
        return Settings("wsgi-core", ["baton-inline", "baton-baseline-inline", "baton-native", "uwsgi-http",
                                      "gunicorn-sync", "floor-c"], ["hello"], [16, 64], rounds=3, duration=10, warmup=2)
    if name == "pipelined":
        # wrk sends 16 requests per write, so a client-bound row shows the server's own limit.
        return Settings("pipelined", ["baton-inline", "baton-baseline-inline", "baton-pool-1", "baton-native",
                                      "granian-wsgi-bt1", "granian-wsgi-bt1-pipeline", "uwsgi-http11", *C_WSGI,
                                      "nginx", "floor-c"],
                        ["hello"], [16], rounds=3, duration=5, warmup=1, pipeline=16)
    if name == "c-wsgi":
        # baton beside the C WSGI servers and Granian on the hello, one request
        # at a time per connection and pipelined (16 per write, as
        # TechEmpower's plaintext test sends them).
        return Settings("c-wsgi", ["baton-inline", "baton-pool-1", "granian-wsgi-bt1"] + C_WSGI + ["floor-c"],
                        ["hello"], [16, 64, 256], rounds=3, duration=3, warmup=1)
    if name == "c-wsgi-pipelined":
        return Settings("c-wsgi-pipelined", ["baton-inline", "baton-pool-1", "granian-wsgi-bt1",
                                             "granian-wsgi-bt1-pipeline"] + C_WSGI + ["floor-c"],
                        ["hello"], [16], rounds=3, duration=5, warmup=1, pipeline=16)
    if name == "pool-syscalls":
        # Syscalls per request in each shape: the handoff's share at saturation.
        return Settings("pool-syscalls", BATON_SHAPES, ["hello"], [16, 64], rounds=1, duration=3, warmup=1,
                        syscalls=True, server_cpus="0,1", client_cpus="0,1")
    if name == "syscalls":
        return Settings("syscalls", ["baton-inline", "baton-native", "floor-c"], ["hello"], [16], rounds=1,
                        duration=3, warmup=1, syscalls=True)
    if name == "quick":
        return Settings("quick", ["baton-inline", "baton-native", "gunicorn-gthread", "floor-c"], ["hello"], [16],
                        rounds=2, duration=3, warmup=1)
    if name == "pool":
        # The pool shape beside inline, its A/B arms and the WSGI peers, on the
        # bare hello, Flask and Django (run at --cores 1 and --cores 2).
        return Settings("pool", BATON_SHAPES + BATON_AB + WSGI_APP_PEERS, ["hello", "flask-json", "django"],
                        [16, 64], rounds=2, duration=3, warmup=1)
    if name == "pool-fairness":
        # The probe for the turn barrier: 16 connections on a view that holds
        # the GIL for 0.3 ms, 4 pool threads. With the barrier p99 stays in
        # single-digit milliseconds; without it the same run must convoy.
        return Settings("pool-fairness", ["baton-pool-4", "baton-pool-4-norunner", "baton-pool-4-noturn",
                                          "granian-wsgi-bt4"], ["busy"], [16],
                        rounds=3,
                        duration=6, warmup=1, server_cpus="0,1", client_cpus="0,1")
    if name == "django-mixed":
        # 16 and 64 connections on Django's fast view while 0, 1 and 2
        # requests to a 200 ms view are kept in flight: what a slow view
        # costs the fast ones. The server on CPU 0 and wrk on CPU 1, as the
        # other suites: with the two sharing both cores (--cores 2) the same
        # arm ranges from 7.5k to 13k rps at 16 connections, run to run, as
        # the scheduler places the GIL's holder, the loop and wrk.
        return Settings("django-mixed", ["baton-inline", "baton-pool-4", "baton-pool-4-norunner", "baton-pool-4-noturn",
                                         "granian-wsgi-bt4", "granian-wsgi-bt1", "gunicorn-gthread", "waitress-4"],
                        ["django-mixed"], [16, 64], background=[0, 1, 2], rounds=5,
                        duration=5, warmup=1)
    if name == "post-echo":
        # The 1 MiB POST echo warm (after a verification request and a warm-up)
        # and cold (loaded straight after start), loaded by the bulk client; nine
        # rounds, as the kernel's share of this row (most of it) varies by a
        # third from one round to the next on this machine.
        return Settings("post-echo", ["baton-inline", "baton-inline-cold", "baton-pool-1", "baton-pool-1-cold",
                                      "granian-wsgi-bt1", "uvicorn-uvloop", "uvicorn-uvloop-cold"], ["post-1m"], [16],
                        rounds=9,
                        duration=4, warmup=1)
    if name == "asgi-echo":
        # The 1 MiB POST echo through ASGI (receive() events, one send() past
        # the output window) beside uvicorn + uvloop, loaded by the bulk client.
        return Settings("asgi-echo", ["baton-asgi-inverted-uvloop", "baton-asgi-inverted", "baton-asgi-pump-uvloop",
                                      "granian-asgi", "uvicorn-uvloop"], ["post-1m"], [16], rounds=5, duration=4, warmup=1)
    if name == "instructions":
        # The hello's own cost, without the kernel's: user-space instructions
        # per request under callgrind, before (the baseline build, when
        # BATON_BASELINE_VENV names one) and after, one request at a time and
        # pipelined: WSGI inline and as a pool of one, ASGI in both shapes.
        return Settings("instructions", ["baton-baseline-inline", "baton-inline", "baton-baseline-pool-1", "baton-pool-1",
                                         "baton-baseline-asgi-inverted-uvloop", "baton-asgi-inverted-uvloop",
                                         "baton-baseline-asgi-pump-uvloop", "baton-asgi-pump-uvloop"], ["hello"], [1, 16],
                        rounds=1, duration=0, warmup=0, instructions=[1, 8])
    if name == "pool-instructions":
        # The WSGI pool's own cost, before (the baseline build, when
        # BATON_BASELINE_VENV names one) and after: user-space instructions
        # per request under callgrind, one at a time and pipelined, inline,
        # as a pool of one and of four, and the pool of four without the
        # runner (BATON_X_POOL_RUNNER=0).
        return Settings("pool-instructions", ["baton-baseline-inline", "baton-inline", "baton-baseline-pool-1",
                                              "baton-pool-1", "baton-baseline-pool-4", "baton-pool-4",
                                              "baton-pool-4-norunner"], ["hello"], [1, 16],
                        rounds=1, duration=0, warmup=0, instructions=[1, 8])
    if name == "asgi-instructions":
        # The ASGI rows' own cost in the one-thread shape beside uvicorn's:
        # user-space instructions per request under callgrind, one request at
        # a time on each connection.
        return Settings("asgi-instructions", ["baton-asgi-inverted-uvloop", "baton-asgi-inverted", "granian-asgi",
                                              "uvicorn-uvloop"],
                        ["hello", "starlette-json", "fastapi-json"], [16, 256], rounds=1, duration=0, warmup=0,
                        instructions=[1])
    if name == "eager-instructions":
        # Eager task starts (Python 3.12 and later) against queued ones, on
        # CPython 3.13 (pyenv's, and sid's as a control for the build) and
        # 3.14 (the sid chroot's), beside the default interpreter's 3.11
        # (which has no eager start): user-space instructions per request,
        # one at a time. Two rounds, the second in reverse order: each row
        # twice shows how far a count moves from one run to the next.
        return Settings("eager-instructions", ["baton-asgi-inverted-uvloop"] + [
                            f"baton-asgi-inverted-uvloop-{python}{lazy}" for python in ("py313", "py313-sid", "py314")
                            for lazy in ("", "-lazy")],
                        ["hello", "starlette-json"], [16], rounds=2, duration=0, warmup=0, instructions=[1])
    if name == "instructions-pythons":
        # The `instructions` suite's hello shapes on CPython 3.13 (pyenv's,
        # and sid's: Debian's build, as 3.14's and 3.15's are, so the build's
        # share of a difference shows), 3.14 and 3.15 (the sid chroot's), the
        # same wheel source on each: user-space instructions per request
        # under callgrind, one at a time and pipelined, WSGI inline and as a
        # pool of one, ASGI in both shapes on uvloop. Two rounds, as in
        # eager-instructions.
        return Settings("instructions-pythons", [f"baton-{shape}-{python}"
                                                 for shape in ("inline", "pool-1", "asgi-inverted-uvloop",
                                                               "asgi-pump-uvloop")
                                                 for python in ("py313", "py313-sid", "py314", "py315")],
                        ["hello"], [1, 16], rounds=2, duration=0, warmup=0, instructions=[1, 8])
    if name == "metrics-instructions":
        # What recording metrics costs: the instructions suite's baton arms
        # with --metrics-bind and without, user-space instructions per
        # request under callgrind, one at a time and pipelined. Two rounds,
        # the second in reverse order.
        return Settings("metrics-instructions", [f"baton-{shape}{metrics}"
                                                 for shape in ("inline", "pool-1", "asgi-inverted-uvloop",
                                                               "asgi-pump-uvloop")
                                                 for metrics in ("", "-metrics")],
                        ["hello"], [1, 16], rounds=2, duration=0, warmup=0, instructions=[1, 8])
    if name == "metrics-hello":
        # The hellos with metrics on beside Granian with its own (--metrics),
        # and both with them off: requests per second, one process each.
        return Settings("metrics-hello", ["baton-inline", "baton-inline-metrics", "granian-wsgi-bt1",
                                          "granian-wsgi-bt1-metrics", "baton-asgi-inverted-uvloop",
                                          "baton-asgi-inverted-uvloop-metrics", "granian-asgi", "granian-asgi-metrics"],
                        ["hello"], [16, 64], rounds=3, duration=4, warmup=1)
    if name == "freethreading":
        # The free-threaded interpreter's use of two cores in one process: a
        # CPU-bound view (a fixed 2-4 ms of pure Python; as written, and with
        # its two numbers the calling thread's own: apps/cpu) and a Django view,
        # 64 connections, the server on both cores and wrk beside it. baton
        # --threads 2 against --threads 1 and --workers 2 on the same 3.13t,
        # Granian 2.7.9 with two workers (threads there) and one, and the
        # GIL's 3.13 with two worker processes each (RSS beside every row).
        return Settings("freethreading", ["baton-ft-t2", "baton-ft-t1", "baton-ft-w2", "granian-ft-w2",
                                          "granian-ft-w1", "baton-py313-w2", "granian-py313-w2"],
                        ["cpu", "cpu-local", "django"], [64], rounds=3, duration=4, warmup=1, server_cpus="0,1",
                        client_cpus="0,1")
    if name == "accept-spread":
        # How the connections are shared among the loops: each loop's own
        # socket (SO_REUSEPORT, binding.spread) against the one socket they
        # all wait on, on the CPU-bound view with both cores, 64 and 1 000
        # connections: two loop threads on 3.13t, two workers on the GIL's
        # 3.13. The view's numbers are the calling thread's own (cpu-local):
        # the shared constants' reference counts would cap two threads
        # whichever way they accept.
        return Settings("accept-spread", ["baton-ft-t2", "baton-ft-t2-shared", "baton-py313-w2",
                                          "baton-py313-w2-shared"], ["cpu-local"], [64, 1000], rounds=3, duration=4,
                        warmup=1, server_cpus="0,1", client_cpus="0,1")
    if name == "freethreading-hello":
        # What the free-threaded interpreter costs per request: the bare WSGI
        # and ASGI hellos on one core, 3.13t against the GIL's 3.13 (both
        # asyncio: uvloop has no free-threaded wheel).
        return Settings("freethreading-hello", ["baton-ft-t1", "baton-inline-py313", "baton-ft-asgi-t1",
                                                "baton-py313-asgi-t1"], ["hello"], [16], rounds=3, duration=4,
                        warmup=1)
    if name == "freethreading-mixed":
        # Django's fast view while 0, 1 and 2 requests to a 200 ms view are in
        # flight: the pool of 4 on 3.13t (its threads run at once, no turn
        # barrier; and with the barrier forced on) against the GIL's pool of
        # 4 with its barrier.
        return Settings("freethreading-mixed", ["baton-ft-pool-4", "baton-ft-pool-4-turn", "baton-py313-pool-4"],
                        ["django-mixed"], [16],
                        background=[0, 1, 2], rounds=2, duration=5, warmup=1, server_cpus="0,1", client_cpus="0,1")
    if name == "freethreading-pool":
        # Which shape a user of 3.13t should pick: the default pool of 4
        # (its threads run Python on both cores at once) against --threads 2
        # (two loop threads, each running the app) and --threads 1, on the
        # CPU-bound view, Django and the hello; the server on both cores and
        # wrk beside it, RSS beside every row.
        return Settings("freethreading-pool", ["baton-ft-pool-4", "baton-ft-t2", "baton-ft-t1"],
                        ["cpu", "django", "hello"], [64], rounds=5, duration=4, warmup=1, server_cpus="0,1",
                        client_cpus="0,1")
    if name == "idle-memory":
        # What 5 000 idle keep-alive connections cost each server, per connection.
        return Settings("idle-memory", ["baton-inline", "baton-pool-4", "baton-asgi-inverted-uvloop",
                                        "baton-asgi-pump-uvloop", "granian-wsgi-bt1", "granian-wsgi-bt4",
                                        "granian-asgi", "uvicorn-uvloop", "gunicorn-gthread", "socketify-asgi"],
                        ["hello"], [5000], rounds=1, duration=1, warmup=0, idle_connections=5000)
    if name == "asgi":
        # The ASGI shapes on both loops beside the ASGI servers, on the bare
        # hello, Starlette and FastAPI at 16, 64 and 256 connections (run at
        # --cores 1 and --cores 2).
        return Settings("asgi", BATON_ASGI + ASGI_PEERS, ["hello", "starlette-json", "fastapi-json"],
                        [16, 64, 256], rounds=2, duration=3, warmup=1)
    if name == "workers":
        # Two workers on two cores (wrk shares them): baton's shapes beside
        # gunicorn -w 2 (sync, gthread), uWSGI --processes 2 and uvicorn
        # --workers 2, on the bare hello and Django.
        return Settings("workers", ["baton-w2-inline", "baton-w2-pool", "baton-w2-pool-1", "baton-w2-asgi",
                                    "baton-w2-asgi-inverted", "granian-w2-wsgi-bt1", "granian-w2-wsgi-bt4",
                                    "granian-w2-asgi", "gunicorn-w2-sync", "gunicorn-w2-gthread", "uwsgi-p2",
                                    "uvicorn-w2"], ["hello", "django"], [64],
                        rounds=3, duration=4, warmup=1, server_cpus="0,1", client_cpus="0,1")
    if name == "static":
        # A 64 KiB file from baton's core beside nginx serving the same file.
        return Settings("static", ["baton-static", "baton-pool-4-static", "granian-static", "nginx-static"],
                        ["static-64k"], [16, 64], rounds=3,
                        duration=4, warmup=1)
    if name == "access-log":
        # What --access-log costs per request on the bare hello (bar: under 5 % CPU).
        return Settings("access-log", ["baton-inline", "baton-inline-accesslog", "baton-pool-1",
                                       "baton-pool-1-accesslog"], ["hello"], [16], rounds=3, duration=5, warmup=1)
    if name == "access-log-instructions":
        # What a line of the access log costs, the combined text format and
        # JSON, beside no log: user-space instructions per request under
        # callgrind (the writer thread's included), one request at a time.
        return Settings("access-log-instructions", ["baton-inline", "baton-inline-accesslog",
                                                    "baton-inline-accesslog-json"], ["hello"], [1],
                        rounds=1, duration=0, warmup=0, instructions=[1])
    if name == "ws-echo":
        # WebSocket echo round trips (bench/wsload.c, one message in flight
        # per connection) at 64 and 512 connections, 32 B, 512 B and 16 KiB
        # messages, with permessage-deflate off and on (run at --cores 1 and 2).
        return Settings("ws-echo", WS_ARMS, WS_ECHO, [64, 512], rounds=2, duration=3, warmup=1)
    if name == "ws-broadcast":
        # A Starlette app that sends each message to all 1 000 connected
        # clients: deliveries per second, and each broadcast's latency to its last copy.
        return Settings("ws-broadcast", WS_ARMS, ["ws-broadcast"], [1000], rounds=2, duration=4, warmup=1)
    if name == "ws-idle-memory":
        # What 2 000 open, idle WebSockets cost each server, per connection.
        return Settings("ws-idle-memory", WS_ARMS, ["ws-echo-32"], [2000], rounds=1, duration=1, warmup=0,
                        idle_connections=2000)
    if name == "tls-h2":
        # TLS and HTTP/2 beside Granian and hypercorn (nginx for the file):
        # the plain hello (the TLS rows' reference), HTTPS/1.1 kept alive and
        # one handshake per request (wrk), h2 with 1, 10 and 100 streams per
        # connection and h2c (h2load), a 64 KiB file and Flask and Starlette
        # JSON over h2 (run at --cores 1 and --cores 2).
        h2 = ["hello-h2-m1", "hello-h2-m10", "hello-h2-m100", "hello-h2c-m10", "flask-json-h2", "starlette-json-h2"]
        arms = ["baton-inline", "baton-pool-4", "baton-asgi-inverted-uvloop", "granian-wsgi-bt1", "granian-asgi",
                "hypercorn"]
        static = ["baton-static", "granian-static", "nginx-static"]
        return Settings("tls-h2", arms + static, ["hello", "hello-https", "handshake-https", *h2, "static-64k-h2"],
                        [16], rounds=2, duration=3, warmup=1,
                        per_workload_connections={"hello-h2-m10": [4], "hello-h2-m100": [4], "hello-h2c-m10": [4],
                                                  "flask-json-h2": [4], "starlette-json-h2": [4],
                                                  "static-64k-h2": [4]},
                        per_workload_arms={"static-64k-h2": static,
                                           **{w: arms for w in ["hello", "hello-https", "handshake-https", *h2]}})
    if name == "tls-stack":
        # The TLS rows before and after the move to OpenSSL 3.5: the build
        # BATON_BASELINE_VENV names (on the system's OpenSSL 3.0) and this
        # one, alternating, with Granian (rustls) beside: HTTPS/1.1 kept
        # alive, one handshake per request, and h2 at 10 streams.
        arms = ["baton-baseline-inline-h2", "baton-inline", "granian-wsgi-bt1"]
        return Settings("tls-stack", arms, ["hello-https", "handshake-https", "hello-h2-m10"], [16], rounds=3,
                        duration=3, warmup=1, per_workload_connections={"hello-h2-m10": [4]})
    if name == "ws-before-after":
        # The WebSocket path's copies, before (the build BATON_BASELINE_VENV
        # names) and after, alternating, with uvicorn (the peer the rows are
        # held against) and Granian beside: the 16 KiB echo, deflate off and
        # on, at 64 and 512 connections (run at --cores 1 and 2).
        arms = ["baton-baseline-asgi-inverted-uvloop", "baton-asgi-inverted-uvloop", "baton-baseline-asgi-pump-uvloop",
                "baton-asgi-pump-uvloop", "uvicorn-ws-sansio", "granian-asgi-ws"]
        return Settings("ws-before-after", arms, ["ws-echo-16k", "ws-echo-16k-deflate"], [64, 512], rounds=3,
                        duration=3, warmup=1)
    if name == "h2-before-after":
        # HTTP/2's copies, before (the build BATON_BASELINE_VENV names) and
        # after, alternating, with Granian beside: the hello over h2 at 4
        # connections of 100 streams, and the 64 KiB file over h2 at 4
        # connections; CPU per request beside the rate (run at --cores 1).
        return Settings("h2-before-after", ["baton-baseline-inline-h2", "baton-inline-h2", "granian-wsgi-bt1",
                                            "baton-baseline-static", "baton-static", "granian-static"],
                        ["hello-h2-m100", "static-64k-h2"], [4], rounds=3, duration=4, warmup=1,
                        per_workload_arms={"hello-h2-m100": ["baton-baseline-inline-h2", "baton-inline-h2",
                                                             "granian-wsgi-bt1"],
                                           "static-64k-h2": ["baton-baseline-static", "baton-static",
                                                             "granian-static"]})
    if name == "h3":
        # HTTP/3 (h2load built with ngtcp2 and nghttp3: make h2load-h3)
        # beside HTTP/2 over TLS in the same run: baton's WSGI inline and
        # ASGI inverted shapes, and hypercorn, the one Python peer with
        # HTTP/3 (on aioquic). The hello at 1, 10 and 100 streams a
        # connection, Starlette's JSON and the 64 KiB file answered by
        # baton's core (hypercorn has no file handler) at 10; 4 connections,
        # the server on one core (run at --cores 1), CPU per request beside
        # the rate.
        h3_arms = ["baton-inline", "baton-asgi-inverted-uvloop", "hypercorn-h3"]
        h2_arms = ["baton-inline", "baton-asgi-inverted-uvloop"]
        rows = {**{f"hello-h3-m{m}": h3_arms for m in (1, 10, 100)},
                **{f"hello-h2-m{m}": h2_arms for m in (1, 10, 100)},
                "starlette-json-h3": h3_arms[1:], "starlette-json-h2": h2_arms[1:],
                "static-64k-h3": ["baton-static"], "static-64k-h2": ["baton-static"]}
        return Settings("h3", h3_arms + ["baton-static"], list(rows), [4], rounds=3, duration=4, warmup=1,
                        per_workload_arms=rows)
    if name == "h3-before-after":
        # HTTP/3 before (the build BATON_BASELINE_VENV names) and after,
        # alternating: the WSGI hello at 10 and 100 streams a connection and
        # the 64 KiB file at 10, 4 connections, the server on one core (run
        # at --cores 1), CPU per request beside the rate.
        rows = {"hello-h3-m10": ["baton-baseline-inline-h2", "baton-inline-h2"],
                "hello-h3-m100": ["baton-baseline-inline-h2", "baton-inline-h2"],
                "static-64k-h3": ["baton-baseline-static", "baton-static"]}
        return Settings("h3-before-after", ["baton-baseline-inline-h2", "baton-inline-h2", "baton-baseline-static",
                                            "baton-static"], list(rows), [4], rounds=5, duration=4, warmup=1,
                        per_workload_arms=rows)
    if name == "h3-upload":
        # A 1 MiB upload echoed back over HTTP/3 and over HTTP/2 with TLS, by
        # the WSGI inline shape on one core (run at --cores 1).
        rows = {"post-1m-h3": ["baton-inline"], "post-1m-h2": ["baton-inline"]}
        return Settings("h3-upload", ["baton-inline"], list(rows), [4], rounds=3, duration=4, warmup=1,
                        per_workload_arms=rows)
    if name == "dry":
        # For the harness's own test: two tiny arms, a second each.
        return Settings("dry", ["baton-native", "floor-c"], ["hello"], [4], rounds=1, duration=1, warmup=1)
    raise SystemExit(f"unknown suite {name!r}: default, wsgi-core, pipelined, c-wsgi, c-wsgi-pipelined, syscalls, quick, pool, pool-fairness, "
                     "django-mixed, post-echo, asgi-echo, idle-memory, instructions, pool-instructions, asgi-instructions, eager-instructions, "
                     "instructions-pythons, metrics-instructions, metrics-hello, freethreading, accept-spread, freethreading-hello, "
                     "freethreading-mixed, freethreading-pool, "
                     "pool-syscalls, asgi, "
                     "workers, static, access-log, ws-echo, ws-before-after, ws-broadcast, ws-idle-memory, tls-h2, tls-stack, h3, h3-before-after, h3-upload, dry")
