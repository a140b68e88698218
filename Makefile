# a2aport — build and test entry points. `make test` is what CI runs on a fresh clone.
GO ?= go
WASM_FLAGS = -buildmode=c-shared -trimpath

.PHONY: test test.go check check.fmt check.vet check.tidy check.generate build.wasm bench testagent

test: check test.go

test.go:
	$(GO) test -count=1 ./...

check: check.fmt check.vet check.tidy check.generate

check.fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

check.vet:
	$(GO) vet ./...
	GOOS=wasip1 GOARCH=wasm $(GO) vet ./wasm/...

check.tidy:
	$(GO) mod tidy -diff

# Generated easyjson code must match its source.
check.generate:
	$(GO) generate ./...
	@git diff --exit-code -- '*_easyjson.go' || { echo "generated code is stale: run go generate ./... and commit"; exit 1; }

# Both module flavours into bin/ (the Go host builds them on demand; this is for other hosts).
build.wasm:
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -o bin/a2aport.wasm ./wasm
	GOOS=wasip1 GOARCH=wasm $(GO) build $(WASM_FLAGS) -tags a2aport_nolegacy -o bin/a2aport-1.0.wasm ./wasm
	@ls -l bin/*.wasm

# Sizes, compile and instantiate times, time per Work native vs module.
bench:
	$(GO) test -run '^$$' -bench . -benchtime=1x ./host/ | grep -v TrivialWork
	$(GO) test -run '^$$' -bench 'TrivialWork|Instantiate' -benchtime=200x ./host/

# Runs the test agent standalone on a loopback port and prints its card URLs.
testagent:
	$(GO) run ./tests/agent/cmd/a2aport-testagent
