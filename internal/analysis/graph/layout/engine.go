package layout

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/tetratelabs/wazero"

	graphviz "github.com/trainreport/trainreport/internal/thirdparty/graphviz"
)

// UserCacheDir is the folder the layout engine's compiled code is kept in
// between runs: "trainreport/graphviz" in the user's cache folder
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux), or "" when
// there is none, the engine then being compiled in memory by each
// process.
func UserCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "trainreport", "graphviz")
}

// engineOnce starts Graphviz's WebAssembly module, which is the process's
// (the library keeps it in package variables): only the first view that
// needs dot chooses its cache.
var (
	engineOnce sync.Once
	engineErr  error
)

// startEngine compiles Graphviz's WebAssembly module, once per process,
// with its machine code kept in cacheDir when that folder is private
// (see privateCache), in memory otherwise: compiling costs about 2.5 s
// and 60 MB, reading the compiled code back 0.1 s.
func startEngine(cacheDir string) error {
	engineOnce.Do(func() {
		var cache wazero.CompilationCache
		if cacheDir != "" {
			// A folder that cannot be used costs time, not the layout:
			// the code is then compiled in memory.
			cache, _ = privateCache(cacheDir)
		}
		engineErr = graphviz.Start(cache)
	})
	return engineErr
}

// privateCache returns a compilation cache in dir, creating dir (and its
// missing parents) 0700, after checking that no other user can have put
// code there or can swap it: wazero runs what it reads from the cache
// after a checksum only. dir must be a folder of the current user, not a
// symbolic link, with no permission for group or others, and every
// folder above it (the path given and the one its links lead to) the
// current user's or root's, writable by others only with the sticky bit
// (as /tmp), so that dir cannot be renamed and replaced.
func privateCache(dir string) (wazero.CompilationCache, error) {
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("layout cache %q: not an absolute path", dir)
	}
	dir = filepath.Clean(dir)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("layout cache: %w", err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return nil, fmt.Errorf("layout cache: %w", err)
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("layout cache %s: a symbolic link", dir)
	case !fi.IsDir():
		return nil, fmt.Errorf("layout cache %s: not a folder", dir)
	case fi.Mode().Perm()&0o077 != 0:
		return nil, fmt.Errorf("layout cache %s: mode %v, open to group or others", dir, fi.Mode().Perm())
	}
	if err := ownedByMe(fi); err != nil {
		return nil, fmt.Errorf("layout cache %s: %w", dir, err)
	}
	parent := filepath.Dir(dir)
	if err := safeAncestors(parent); err != nil {
		return nil, fmt.Errorf("layout cache %s: %w", dir, err)
	}
	if real, err := filepath.EvalSymlinks(parent); err != nil {
		return nil, fmt.Errorf("layout cache: %w", err)
	} else if real != parent {
		if err := safeAncestors(real); err != nil {
			return nil, fmt.Errorf("layout cache %s: %w", dir, err)
		}
	}
	return wazero.NewCompilationCacheWithDir(dir)
}

// safeAncestors checks p and every folder above it: each the current
// user's or root's, and a folder writable by group or others only with
// the sticky bit, which keeps others from renaming what is in it.
func safeAncestors(p string) error {
	for {
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		if err := ownedByMeOrRoot(fi); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if fi.IsDir() && fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
			return fmt.Errorf("%s: mode %v, writable by others", p, fi.Mode().Perm())
		}
		up := filepath.Dir(p)
		if up == p {
			return nil
		}
		p = up
	}
}

// errOwner is returned by ownedByMe and ownedByMeOrRoot.
var errOwner = errors.New("owned by another user")
