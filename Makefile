# trainreport: see README.md.
GO        ?= go
BUF_VERSION          := v1.57.2
PROTOC_GEN_GO_VERSION := v1.36.12
TOOLS     := $(CURDIR)/.tools

.PHONY: all build test demo generate bench fmt vet clean test-deps

all: build

build:
	$(GO) build -o bin/trainreport ./cmd/trainreport

# demo writes a small example logdir and renders it into report/.
demo:
	rm -rf examples/demo/logs
	$(GO) run ./examples/demo -o examples/demo/logs
	$(GO) run ./cmd/trainreport -o report examples/demo/logs
	@echo "open report/index.html"

# test runs every test, installing what the browser tests need first.
test: test-deps
	$(GO) vet ./...
	$(GO) test -count=1 ./...

# test-deps installs Debian's chromium for the real-browser tests when it is
# missing (CI machines start without it).
test-deps:
	@command -v chromium >/dev/null 2>&1 || sh ./.ci/install-chromium

# generate rebuilds the Go code of our .proto files with pinned tools.
generate:
	GOBIN=$(TOOLS) $(GO) install github.com/bufbuild/buf/cmd/buf@$(BUF_VERSION)
	GOBIN=$(TOOLS) $(GO) install google.golang.org/protobuf/cmd/protoc-gen-go@$(PROTOC_GEN_GO_VERSION)
	cd collect/eventpb && PATH="$(TOOLS):$$PATH" buf generate

bench:
	$(GO) test -run '^$$' -bench . -benchmem ./...

fmt:
	gofmt -l -w $$(git ls-files '*.go' | grep -v '\.pb\.go$$')

clean:
	rm -rf bin report examples/demo/logs
