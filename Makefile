# a2aport — build and test entry points. `make test` is what CI runs on a fresh clone.
GO ?= go

.PHONY: test test.go check check.fmt check.vet check.tidy bench testagent

test: check test.go

test.go:
	$(GO) test -count=1 ./...

check: check.fmt check.vet check.tidy

check.fmt:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

check.vet:
	$(GO) vet ./...

check.tidy:
	$(GO) mod tidy -diff

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

# Runs the test agent standalone on a loopback port and prints its card URLs.
testagent:
	$(GO) run ./tests/agent/cmd/a2aport-testagent
