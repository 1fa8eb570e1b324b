package wasm

// This file is not upstream's (see ../../README.md): it starts the module
// on first use, where upstream's package init compiled it at every
// program's start and kept the machine code in a folder under
// os.TempDir() that any local user can create first.

import (
	"context"
	"sync"

	"github.com/tetratelabs/wazero"
)

var (
	startOnce sync.Once
	startErr  error
	onStart   []func(context.Context) error
)

// OnStart registers f to run once the module is instantiated, before
// Start returns; it is called from package init functions only.
func OnStart(f func(context.Context) error) { onStart = append(onStart, f) }

// Start compiles and instantiates graphviz.wasm, once per process, with
// the compiled code kept in cache when it is not nil and in memory
// otherwise; every later call returns the first call's error and ignores
// its cache. The module lives as long as the process: it is not tied to
// a caller's context.
func Start(cache wazero.CompilationCache) error {
	startOnce.Do(func() {
		ctx := context.Background()
		startErr = start(ctx, cache)
		for _, f := range onStart {
			if startErr != nil {
				return
			}
			startErr = f(ctx)
		}
	})
	return startErr
}
