# noggin for Go — one Makefile for the whole workspace (see README.md).
SHELL := bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
MAKEFLAGS += --no-builtin-rules

GO        ?= go
BIN       ?= $(CURDIR)/bin
UNIT_PKGS := ./core/... ./bench/... ./surfaces/cli/... ./surfaces/mcp/... ./surfaces/rpc/... ./surfaces/rpc/remote/...
ALL_PKGS  := $(UNIT_PKGS) ./e2e/...
FUZZTIME  ?= 20s
ARGS      ?=
# The CLI starts hundreds of times a day: leave out urfave/cli's man-page and
# suggestion code (and debug info) to cut its start-up time.
CLI_TAGS  := -tags urfave_cli_no_docs,urfave_cli_no_suggest
# Without cgo the binary is static: linking net (for remote noggins) with
# cgo makes it dynamic, and the dynamic loader costs every start
# (bench/mechanisms.md).
CLI_ENV   := CGO_ENABLED=0
# Version, commit and build date for --version (core/buildinfo).
VERSION   ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
STAMP     := -X github.com/noggin-go/noggin/core/buildinfo.version=$(VERSION) \
             -X github.com/noggin-go/noggin/core/buildinfo.commit=$(shell git rev-parse --short=12 HEAD 2>/dev/null) \
             -X github.com/noggin-go/noggin/core/buildinfo.date=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)
CLI_BUILD := $(CLI_TAGS) -trimpath -ldflags "-s -w $(STAMP)"
SRV_BUILD := -trimpath -ldflags "$(STAMP)"

.PHONY: help
help: ## list the targets
	@grep -hE '^[a-zA-Z0-9_-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

.PHONY: build
build: ## build noggin, noggin-mcp and noggin-rpc into ./bin
	@mkdir -p $(BIN)
	$(CLI_ENV) $(GO) build $(CLI_BUILD) -o $(BIN)/noggin ./surfaces/cli/cmd/noggin
	$(GO) build $(SRV_BUILD) -o $(BIN)/noggin-mcp ./surfaces/mcp/cmd/noggin-mcp
	$(GO) build $(SRV_BUILD) -o $(BIN)/noggin-rpc ./surfaces/rpc/cmd/noggin-rpc

.PHONY: install
install: man ## go install the three binaries into $GOBIN (or ~/go/bin), their man pages into $MANDIR
	$(CLI_ENV) $(GO) install $(CLI_BUILD) ./surfaces/cli/cmd/noggin
	$(GO) install $(SRV_BUILD) ./surfaces/mcp/cmd/noggin-mcp ./surfaces/rpc/cmd/noggin-rpc
	mkdir -p $(MANDIR)/man1 && cp $(BIN)/man/man1/*.1 $(MANDIR)/man1/

# Where make install puts the man pages (man finds ~/.local/share/man by itself).
MANDIR    ?= $(HOME)/.local/share/man

.PHONY: man
man: build ## write the man pages of the three binaries, from their help, into ./bin/man/man1
	bash scripts/man.sh $(BIN) $(BIN)/man

.PHONY: run
run: ## run the CLI on the default store: make run ARGS='push "spike storage"'
	@$(CLI_ENV) $(GO) run $(CLI_TAGS) ./surfaces/cli/cmd/noggin $(ARGS)

.PHONY: test
test: vet unit e2e ## everything CI runs: vet, unit tests with -race, the e2e suite

.PHONY: short
short: ## the fast inner loop: vet, unit tests without -race, the e2e suite in -short mode
	$(GO) vet $(ALL_PKGS)
	$(GO) test -short -count=1 $(UNIT_PKGS)
	$(GO) test -short -count=1 ./e2e/...

.PHONY: vet
vet: ## go vet and gofmt check over every module
	$(GO) vet $(ALL_PKGS)
	@out=$$(gofmt -l core bench surfaces e2e); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

.PHONY: unit
unit: ## unit tests of core and the surfaces, with -race (a line per package as it ends)
	bash scripts/gotestsum.sh pkgname -race -count=1 $(UNIT_PKGS)

.PHONY: e2e
e2e: ## cross-surface suite: same input, byte-identical envelopes on CLI, MCP and RPC (a line per test)
	bash scripts/gotestsum.sh testname -race -count=1 -timeout 15m ./e2e/...

.PHONY: bench
bench: ## Go benchmarks of core (codec, engine, store, envelope) with -benchmem
	$(GO) test -run '^$$' -bench . -benchmem ./core/...

.PHONY: bench-cli
bench-cli: ## time whole noggin invocations on 10, 1k and 10k-item noggins (medians)
	bash surfaces/cli/bench/bench.sh

.PHONY: bench-report
bench-report: ## whole-process CLI vs its floors (hello-world start, read and replace floors) on 10/10k/100k items: bench/README.md + chart.png + README's table
	cd bench && $(GO) run . -report $(CURDIR)/bench -readme $(CURDIR)/README.md -runs $(or $(RUNS),15)

.PHONY: bench-tokens
bench-tokens: ## bytes an agent pays: tools/list and each tool on 10/1k-flat/2,220/10k noggins, beside the original's (NOGGIN_ORIGINAL_MCP=its noggin-mcp .mjs): bench/tokens.md
	cd bench && $(GO) run . -tokens -report $(CURDIR)/bench

.PHONY: bench-mcp
bench-mcp: ## warm noggin_show / noggin_note calls over stdio (p50, p99, calls/s)
	$(GO) test -run '^$$' -bench . -benchmem ./surfaces/mcp/...

.PHONY: bench-ui
bench-ui: ## the web view in headless Chromium: paint of 1k/10k/100k items, CLI write to page (5 and 100k items, median of 20), frames under 50 writes/s
	dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	for n in 1000 10000 100000; do (cd bench && $(GO) run . -gen $$n "$$dir/n$$((n/1000))k.yaml") || exit 1; done && \
	NOGGIN_UI_NOGGINS="$$dir" $(GO) test -run '^$$' -bench 'BenchmarkUIPaint' -benchtime 5x ./e2e && \
	NOGGIN_UI_NOGGINS="$$dir" $(GO) test -run '^$$' -bench 'BenchmarkUILiveUpdate' -benchtime 20x ./e2e && \
	NOGGIN_UI_NOGGINS="$$dir" $(GO) test -run '^$$' -bench 'BenchmarkUISmooth' -benchtime 3x ./e2e

.PHONY: bench-web
bench-web: ## the web view opening 1k/10k/100k items: bytes and time to the first rows, then a CLI write to the page
	dir=$$(mktemp -d) && trap 'rm -rf "$$dir"' EXIT && \
	for n in 1000 10000 100000; do (cd bench && $(GO) run . -gen $$n "$$dir/n$$((n/1000))k.yaml") || exit 1; done && \
	NOGGIN_UI_NOGGINS="$$dir" $(GO) test -run '^$$' -bench 'BenchmarkWebOpen' -benchtime 5x ./e2e

.PHONY: bench-rpc
bench-rpc: ## load test of noggin-rpc over loopback (p50, p99, req/s)
	bash surfaces/rpc/scripts/bench.sh

.PHONY: bench-pg
bench-pg: ## team server on a throwaway durable PostgreSQL vs the file store (p50/p99, writes/s)
	$(GO) test -run '^$$' -bench . -benchtime 300x ./surfaces/rpc/pgstore/

.PHONY: fuzz
fuzz: ## run every fuzz target for FUZZTIME (default 20s) each
	bash scripts/fuzz.sh $(FUZZTIME)

.PHONY: gen
gen: ## regenerate protobuf/Connect code with buf (pinned through the Go proxy)
	bash surfaces/rpc/scripts/gen.sh

.PHONY: checkgen
checkgen: ## fail if committed generated code differs from a fresh generation
	bash surfaces/rpc/scripts/checkgen.sh

.PHONY: readme-rpc
readme-rpc: ## run every curl / buf curl / grpcurl command of surfaces/rpc/README.md on a token server
	bash surfaces/rpc/scripts/readme.sh

.PHONY: verify-deploy
verify-deploy: ## systemd-analyze verify of deploy/noggin-rpc.service (against a freshly built noggin-rpc)
	bash scripts/verify-deploy.sh

.PHONY: validate-plugins
validate-plugins: ## the Claude Code and Codex CLIs (from npm, pinned) validate and install the agent plugin
	bash scripts/plugins.sh

.PHONY: lint-proto
lint-proto: ## buf lint (STANDARD) over proto/
	bash surfaces/rpc/scripts/lint.sh

.PHONY: lint
lint: vet lint-go lint-proto ## go vet and gofmt, golangci-lint, go mod tidy -diff, buf lint

.PHONY: lint-go
lint-go: ## golangci-lint v2 (.golangci.yml) over every module and go mod tidy -diff
	bash scripts/lint.sh

.PHONY: tidy
tidy: ## go mod tidy in every module
	for m in core bench surfaces/cli surfaces/mcp surfaces/rpc surfaces/rpc/remote e2e; do (cd $$m && $(GO) mod tidy); done

.PHONY: dist
dist: ## cross-build the three binaries for linux/macOS/Windows on amd64/arm64 into dist/ (+ SHA256SUMS)
	bash scripts/dist.sh $(VERSION)

.PHONY: clean
clean: ## remove ./bin and ./dist
	rm -rf $(BIN) dist
