# a2aport — build and test entry points. `make test` is what CI runs on a fresh clone.
GO ?= go
SHELL := /bin/bash

.PHONY: package deps fuzz soak test test.go test.js test.browser test.bundler test.electron build.cli check check.fmt check.vet check.lint check.tidy check.generate check.module check.size build.wasm build.js bench demo testagent api

# Everything, from a fresh clone: the set-up first (nothing is built before it), the checks, every
# test, and last the check that the committed module is this tree's build.
test: deps check test.go test.js test.browser test.bundler test.electron check.module

# What the tests need beyond Go and Node (Chromium, PostgreSQL: installed through apt when run as
# root, else the command to run), the Go modules and the npm dev dependencies.
deps:
	@.ci/deps
	$(GO) mod download
	@$(MAKE) --no-print-directory js/node_modules examples/browser/node_modules examples/bundler/node_modules examples/electron/node_modules

# Go tests in random order, under -race; then without it what measures the machine more than the
# code under -race: the long stream through cuts (a2asrv deep-copies the task per event, ten times
# slower under -race) and 2,000 streams at once. The module is compiled into the tests' cache
# first, by a test without -race (15 s, where the first test binary under -race takes minutes).
test.go: build.wasm js/node_modules
	$(GO) test -count=1 ./internal/testkit/hosttest/precompile
	$(GO) test -race -shuffle=on -count=1 ./...
	$(GO) test -count=1 -run 'TestLongStreamThroughCuts|TestFacadeServesManySubscribers' ./tests/

check: check.fmt check.vet check.lint check.tidy check.generate check.size

check.fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

check.vet:
	$(GO) vet ./...
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./wasm/...

# staticcheck, pinned in go.mod as a tool.
check.lint:
	$(GO) tool staticcheck ./...

check.tidy:
	$(GO) mod tidy -diff

# Generated code must match its source: the easyjson envelopes; what the JS package takes from Go
# (internal/jsgen): js/src/closed.js (a2aclient.ClosedPort's answers) and js/src/conformance/checks.js
# (conformance/checks.json); and everything the option table writes (internal/optiontable).
GENERATED := '*_easyjson.go' js/src/closed.js js/src/conformance/checks.js options.go '*/options_gen.go' \
	js/src/optiontable.js js/index.d.ts docs/options.md
check.generate:
	$(GO) generate ./...
	@git diff --exit-code -- $(GENERATED) || { echo "generated code is stale: run go generate ./... and commit"; exit 1; }

# The listing of the public API (api/): internal/apiguard's test fails on a change to an exported Go
# declaration or to js/index.d.ts until this is run; say the change in CHANGELOG.md.
api:
	$(GO) run ./internal/apiguard/cmd/apiguard -w

# The module into bin/, stamped with the source it was built from (skipped when it already is this
# tree's), and compressed into internal/module, which the Go host embeds. How it is built is
# defined once, in internal/wasmbuild; it is optimized by binaryen's wasm-opt, a dev dependency
# of js/.
build.wasm: js/node_modules
	$(GO) run ./internal/wasmbuild/cmd/a2aport-buildwasm -o bin -embed internal/module
	@ls -l bin/*.wasm

# The embedded module must be the build of the committed tree: a fresh build (CI's) that changes
# them means they were not.
check.module: build.wasm
	@if [ -n "$$(git status --porcelain -- internal/module)" ]; then \
		git status --short -- internal/module; \
		echo "internal/module is not the build of this tree: commit what make build.wasm wrote"; exit 1; fi

# No build output in git: a tracked file over 1 MB is refused unless it is an intended asset.
LARGE_ASSETS = internal/module/a2aport.wasm.gz
check.size:
	@large=$$(git ls-files -z | xargs -0 -r stat -c '%s %n' 2>/dev/null | awk '$$1 > 1048576 {print $$2}' | grep -vxF -f <(printf '%s\n' $(LARGE_ASSETS)) || true); \
	if [ -n "$$large" ]; then echo "files over 1 MB tracked (build output? add to .gitignore, or to LARGE_ASSETS if intended):"; echo "$$large"; exit 1; fi

# The terminal client beside the module it runs (it finds them next to its executable).
build.cli: build.wasm
	$(GO) build -o bin/a2aport ./cmd/a2aport

# The JS package with its module, and the test agent and terminal client (its gateway) its tests start.
build.js: build.wasm
	cp bin/a2aport.wasm js/
	$(GO) build -o bin/a2aport-testagent ./internal/testkit/agent/cmd/a2aport-testagent
	$(GO) build -o bin/a2aport ./cmd/a2aport

# The JS package as a user installs it: bin/a2aport-<version>.tgz, with the prebuilt module and
# nothing else a JS user does not need (npm install ./bin/a2aport-0.1.0.tgz; docs/js.md).
package: build.wasm
	cp bin/a2aport.wasm js/
	@cd js && npm pack --pack-destination ../bin --silent | sed 's|^|bin/|'

js/node_modules: js/package.json js/package-lock.json
	cd js && npm ci --no-audit --no-fund
	@touch $@

test.js: build.js js/node_modules
	cd js && node --test --test-concurrency=2 test/*.test.js

# The browser demo with its embedded agent on http://127.0.0.1:8080/ (DEMO_FLAGS="-addr 127.0.0.1:9000").
demo: build.wasm
	$(GO) run ./examples/browser -wasm-dir bin -js-dir js $(DEMO_FLAGS)

examples/browser/node_modules: examples/browser/package.json examples/browser/package-lock.json
	cd examples/browser && npm ci --no-audit --no-fund
	@touch $@

# The demo page in a real Chromium (Debian's: apt-get install -y chromium; .ci/run installs it).
test.browser: build.wasm examples/browser/node_modules js/node_modules
	cd examples/browser && node --test test/*.test.js

examples/bundler/node_modules: examples/bundler/package.json examples/bundler/package-lock.json
	cd examples/bundler && npm ci --no-audit --no-fund
	@touch $@

# The packed JS package bundled by Vite and run in a real Chromium against the test agent.
test.bundler: build.js examples/bundler/node_modules
	cd examples/bundler && node --test test/*.test.js

examples/electron/node_modules: examples/electron/package.json examples/electron/package-lock.json
	cd examples/electron && npm ci --no-audit --no-fund
	@touch $@

# The Electron example's two halves: the main process under Node, the renderer in Chromium.
test.electron: build.js js/node_modules examples/electron/node_modules
	cd examples/electron && node --test test/*.test.js

# Sizes, compile and instantiate times, time per Work native vs module (Go) and a2aport vs
# @a2a-js/sdk's own client (Node); stream throughput at 2,000 and 20,000 chunks against a2a-go's
# client (Go) and @a2a-js/sdk's client (Node) on the replay agent's bytes; memory after 1,000 Works
# and with 100 concurrent answers (Node); time to ready in Chromium. docs/benchmarks.md records the figures.
bench: build.js js/node_modules examples/browser/node_modules
	$(GO) build -o bin/a2aport-replay ./bench/cmd/a2aport-replay
	$(GO) test -run '^$$' -bench . -benchtime=1x ./host/ | grep -v TrivialWork
	$(GO) test -run '^$$' -bench 'TrivialWork|Instantiate' -benchtime=200x ./host/
	$(GO) test -run '^$$' -bench 'Stream|SizeByPackage' -benchtime=3x ./bench/
	cd js && node bench/work.bench.js 200
	cd js && node bench/stream.bench.js 2000 20000
	cd js && node bench/start.bench.js 5
	cd js && node --expose-gc bench/memory.bench.js 1000 100 2000
	cd examples/browser && node bench/ready.bench.js 5
	$(GO) test -run '^$$' -bench StartToFirstRequest -benchtime=5x ./cmd/a2aport/
	$(GO) test -run '^$$' -bench 'Facade|Gateway' -benchtime=1000x ./bench/

# Each fuzz target for FUZZTIME (their seed corpora run in make test): the stream decoder, the
# frame reader, card reading (1.0 and 0.3), and the projection of A2A events.
FUZZTIME ?= 30s
FUZZ_TARGETS = ./internal/binding:FuzzDecodeFast ./internal/binding:FuzzDecodeFast03 ./internal/binding:FuzzParseCompatCard ./internal/abi:FuzzReadFrame ./internal/a2aclient:FuzzParseCard ./internal/a2aclient:FuzzApply
fuzz:
	@for t in $(FUZZ_TARGETS); do \
		pkg=$${t%%:*}; name=$${t##*:}; \
		echo "== $$name ($$pkg, $(FUZZTIME))"; \
		$(GO) test -run '^$$' -fuzz "^$$name$$" -fuzztime $(FUZZTIME) $$pkg || exit 1; \
	done

# Many Works with random faults through the module under wazero and natively (Go), and in Node:
# prints lost outcomes, wrong outcomes, repeated events (all must be 0) and memory and live counts.
SOAK_SEQUENTIAL ?= 2000
SOAK_CONCURRENT ?= 200
soak: build.js js/node_modules
	$(GO) test -run '^$$' -bench Soak -benchtime 1x -timeout 60m ./bench/ -soak.sequential $(SOAK_SEQUENTIAL) -soak.concurrent $(SOAK_CONCURRENT)
	cd js && node --expose-gc bench/soak.bench.js $(SOAK_SEQUENTIAL) $(SOAK_CONCURRENT)

# Runs the test agent standalone on a loopback port and prints its card URLs.
testagent:
	$(GO) run ./internal/testkit/agent/cmd/a2aport-testagent
