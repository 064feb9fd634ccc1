# Needs only Go and a C compiler (gcc, for SQLite through cgo).
GO ?= go

.PHONY: build demo test vet bench-hook clean

# The commit, for `sentinel version`, where Go's VCS stamp is off or absent.
COMMIT ?= $(shell git rev-parse HEAD 2>/dev/null)
LDFLAGS := -X github.com/sentinel-guard/sentinel/internal/version.Commit=$(COMMIT)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o bin/ ./cmd/sentinel ./cmd/sentinel-hook

# The README's first command: realistic calls through the real hook into a
# throwaway register, then the register is verified.
demo: build
	bin/sentinel demo

# go test ./... (with a 40 minute timeout: the real Claude Code sandbox bench in
# e2e/claudecode runs 31 sessions and go test's default 10 minutes cut it short
# on a loaded machine), then one line naming each test it skipped and why (plain
# go test prints "ok" for a package whose suite skipped).
test:
	$(GO) run ./scripts/gotest -timeout 40m ./...

vet:
	gofmt -l $$(git ls-files '*.go')
	$(GO) vet ./...

bench-hook:
	bench/hook/run.sh

clean:
	rm -rf bin/
