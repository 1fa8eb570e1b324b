package main

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/trainreport/trainreport/collect"
	"github.com/trainreport/trainreport/collect/model"
)

// logdirArgs are the log directories a command line names: its arguments
// (LOGDIR or NAME=LOGDIR, wherever they stand among the flags) and
// TensorBoard's two flags, --logdir and --logdir_spec, so that a
// TensorBoard command line works as it is.
type logdirArgs struct {
	positional []string
	logdir     []string
	spec       string
}

// register defines TensorBoard's flags on fs.
func (l *logdirArgs) register(fs *flag.FlagSet) {
	fs.Func("logdir", "read the log directory `DIR`, as TensorBoard's flag does (the same as giving DIR as an argument; may be repeated)",
		func(s string) error {
			l.logdir = append(l.logdir, s)
			return nil
		})
	fs.StringVar(&l.spec, "logdir_spec", "", "read the log directories of `SPEC`, TensorBoard's form: NAME:DIR or DIR, comma-separated (a DIR starting with / or SCHEME:// has no name)")
}

// parse parses args with fs, gathering the arguments between and after the
// flags: Go's flag package stops at the first argument, and a command line
// written for TensorBoard puts flags after the log directory.
func (l *logdirArgs) parse(fs *flag.FlagSet, args []string) error {
	for {
		if err := fs.Parse(args); err != nil {
			return err
		}
		if args = fs.Args(); len(args) == 0 {
			break
		}
		l.positional, args = append(l.positional, args[0]), args[1:]
	}
	return nil
}

// check returns the error of a command line naming its log directories
// in ways that cannot go together.
func (l *logdirArgs) check() error {
	if len(l.logdir) > 0 && l.spec != "" {
		// TensorBoard refuses the pair too: the spec's names would
		// otherwise apply to some directories and not others.
		return errors.New("--logdir and --logdir_spec may not both be given")
	}
	return nil
}

// none reports whether the command line named no log directory.
func (l *logdirArgs) none() bool {
	return len(l.positional) == 0 && len(l.logdir) == 0 && l.spec == ""
}

// resolve returns the log directories, the arguments' first, each checked
// and named (collect.ResolveLogdirArgs).
func (l *logdirArgs) resolve() ([]collect.LogdirArg, error) {
	asked := collect.SplitLogdirArgs(l.positional)
	for _, d := range l.logdir {
		asked = append(asked, collect.LogdirArg{Logdir: model.Logdir{Path: expandHome(d)}})
	}
	asked = append(asked, parseLogdirSpec(l.spec)...)
	return collect.ResolveLogdirArgs(asked)
}

// uriPrefix is what makes a logdir_spec entry a URL rather than NAME:DIR,
// as TensorBoard matches it (data_ingester.py, after TensorFlow's
// ParseURI).
var uriPrefix = regexp.MustCompile(`^[a-zA-Z][0-9a-zA-Z.]*://`)

// parseLogdirSpec reads TensorBoard's --logdir_spec: comma-separated
// entries, each NAME:DIR or DIR. An entry is a DIR alone when it is a URL
// or starts with "/" (so /a:b names the folder "/a:b"); otherwise it is cut
// at its first colon, so a DIR may hold colons after its name. As in
// TensorBoard, "~" is the home folder, and a DIR given twice is read once,
// under the last name given, in the place of its first.
func parseLogdirSpec(spec string) []collect.LogdirArg {
	if spec == "" {
		return nil
	}
	var out []collect.LogdirArg
	at := map[string]int{}
	for _, e := range strings.Split(spec, ",") {
		name, dir := "", e
		if !uriPrefix.MatchString(e) && !strings.HasPrefix(e, "/") {
			if n, d, ok := strings.Cut(e, ":"); ok {
				name, dir = n, d
			}
		}
		key := dir
		if !uriPrefix.MatchString(dir) {
			dir = expandHome(dir)
			key = filepath.Clean(dir)
			if abs, err := filepath.Abs(dir); err == nil {
				key = abs
			}
		}
		a := collect.LogdirArg{Logdir: model.Logdir{Name: name, Path: dir}, Asked: name}
		if i, ok := at[key]; ok {
			out[i] = a
			continue
		}
		at[key] = len(out)
		out = append(out, a)
	}
	return out
}

// expandHome replaces a leading "~" with the home folder, as TensorBoard's
// os.path.expanduser does: a shell leaves "~" alone after "name:" or "=".
func expandHome(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return filepath.Join(home, p[1:])
}
