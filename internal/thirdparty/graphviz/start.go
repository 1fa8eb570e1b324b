package graphviz

// This file is not upstream's (see README.md).

import (
	"github.com/tetratelabs/wazero"

	"github.com/trainreport/trainreport/internal/thirdparty/graphviz/internal/wasm"
)

// Start compiles and instantiates Graphviz's WebAssembly module, once per
// process: the compiled code is kept in cache when it is not nil (so
// that the next process reads it rather than compiling again) and in
// memory otherwise. Only the first call of the process does anything:
// later ones return its error. New and NewWithPlugins call Start(nil);
// every other function of this package and its subpackages needs the
// module started first.
//
// Upstream compiles the module in its package init, at every program's
// start, with the cache in a folder under os.TempDir(): the caller
// chooses here where, or whether, compiled code is kept.
func Start(cache wazero.CompilationCache) error { return wasm.Start(cache) }
