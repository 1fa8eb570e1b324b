package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/render"
)

// helpFlags defines -h and -help on fs, so that asking for help is a flag
// like any other (the flag package would print the usage on its error
// output, stderr, where a usage error's goes) and the caller can print it
// on stdout.
func helpFlags(fs *flag.FlagSet) *bool {
	help := new(bool)
	fs.BoolVar(help, "h", false, "print this help on stdout and exit")
	fs.BoolVar(help, "help", false, "print this help on stdout and exit")
	return help
}

// versionLine is what --version prints: the module's version and the VCS
// revision the binary was built from, "devel" for what the build did not
// record (go run, a build outside a repository).
func versionLine(bi *debug.BuildInfo) string {
	version, rev, modified := "devel", "", false
	if bi != nil {
		if v := bi.Main.Version; v != "" && v != "(devel)" {
			version = v
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	line := "trainreport " + version
	switch {
	case rev != "" && modified:
		line += " (revision " + rev + ", modified)"
	case rev != "":
		line += " (revision " + rev + ")"
	default:
		line += " (revision devel)"
	}
	if bi != nil && bi.GoVersion != "" {
		line += " " + bi.GoVersion
	}
	return line
}

// nouns is noun in the plural unless n is 1.
func nouns[N int | int64](n N, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// plural is "1 noun" or "n nouns".
func plural[N int | int64](n N, noun string) string {
	return fmt.Sprintf("%d %s", n, nouns(n, noun))
}

// sameNames returns a warning for each NAME=LOGDIR whose name an earlier
// argument already took: collect.ParseLogdirArgs renames it (NAME_2),
// which keeps every run apart, so the report goes on, but the name is not
// the one asked for, and a script may have meant another directory.
func sameNames(logdirs []collect.LogdirArg) []string {
	var out []string
	for _, l := range logdirs {
		if l.Asked != "" && l.Asked != l.Name {
			out = append(out, fmt.Sprintf("the name %q is already taken by another log directory: %s is named %q", l.Asked, logfs.Redact(l.Path), l.Name))
		}
	}
	return out
}

// logdirsOf is the log directories of the arguments, to collect.
func logdirsOf(args []collect.LogdirArg) []model.Logdir {
	out := make([]model.Logdir, len(args))
	for i, a := range args {
		out[i] = a.Logdir
	}
	return out
}

// localPaths are the paths of the log directories that are folders, not
// buckets: the ones an output could overwrite.
func localPaths(logdirs []model.Logdir) []string {
	var out []string
	for _, l := range logdirs {
		if !logfs.IsURL(l.Path) {
			out = append(out, l.Path)
		}
	}
	return out
}

// genericNames are base names of log directories that say nothing of the
// training (the writers' and frameworks' defaults): a default title made
// of them takes the folders above too (see defaultTitle).
var genericNames = []string{"events", "lightning_logs", "log", "logs", "output", "outputs", "results",
	"run", "runs", "summaries", "tb", "tb_logs", "tensorboard", "tensorboard_logs"}

// maxTitleDirs bounds the folders of a path a default title names.
const maxTitleDirs = 3

// defaultTitle is the report's title without --title: the log directories'
// names, joined. A directory named with NAME= is called so; one whose base
// name is generic (logs, runs, lightning_logs...) is called by its path
// from the first folder above that is not, at most three folders
// (.../mnist/lightning_logs is "mnist/lightning_logs").
func defaultTitle(logdirs []collect.LogdirArg) string {
	names := make([]string, len(logdirs))
	for i, l := range logdirs {
		names[i] = l.Name
		if l.Asked != "" {
			continue
		}
		if logfs.IsURL(l.Path) {
			// The bucket and prefix, without the query: s3://b/x/runs is
			// "b/x/runs" by the same rule as a path.
			parts := strings.Split(strings.SplitN(logfs.Redact(l.Path), "://", 2)[1], "/")
			k := len(parts) - 1
			for k > 0 && len(parts)-k < maxTitleDirs && slices.Contains(genericNames, strings.ToLower(parts[k])) {
				k--
			}
			names[i] = strings.Join(parts[k:], "/")
			continue
		}
		abs, err := filepath.Abs(l.Path)
		if err != nil {
			continue
		}
		parts := []string{filepath.Base(abs)}
		for dir := filepath.Dir(abs); len(parts) < maxTitleDirs && slices.Contains(genericNames, strings.ToLower(parts[0])); dir = filepath.Dir(dir) {
			base := filepath.Base(dir)
			if dir == filepath.Dir(dir) || base == "" || base == string(filepath.Separator) || base == "." {
				break // the root
			}
			parts = append([]string{base}, parts...)
		}
		names[i] = strings.Join(parts, "/")
	}
	return strings.Join(names, ", ")
}

// readNotes reads --notes' file: a regular file (a FIFO would wait for
// ever), at most render.MaxNotesBytes, as UTF-8 (what is not becomes
// U+FFFD).
func readNotes(name string) (string, error) {
	// Stat before opening: opening a FIFO waits for a writer.
	if fi, err := os.Stat(name); err != nil {
		return "", err
	} else if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file", name)
	}
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, render.MaxNotesBytes+1))
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", name, err)
	}
	if len(b) > render.MaxNotesBytes {
		return "", fmt.Errorf("%s holds more than %d KiB of notes, the most a report takes", name, render.MaxNotesBytes>>10)
	}
	return strings.ToValidUTF8(string(b), "\uFFFD"), nil
}
