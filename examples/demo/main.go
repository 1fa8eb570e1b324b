// Command demo writes a small, deterministic TensorBoard log directory that
// looks like a real experiment, so that a report built from it shows what
// trainreport does:
//
//	go run ./examples/demo -o /tmp/demo-logs
//
// The generation itself lives in package demolog, which describes the runs;
// this program only parses flags and checks the output directory. It
// creates the directory and refuses to write into one that is not empty
// unless -force is given; it never removes anything.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/trainreport/trainreport/examples/demo/demolog"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		if !errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(os.Stderr, "demo:", err)
		}
		os.Exit(2)
	}
}

// run parses the command line, generates the log directory and prints a
// one-line summary to stdout.
func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("demo", flag.ContinueOnError)
	fl.SetOutput(stderr)
	out := fl.String("o", "", "log directory to create (required)")
	force := fl.Bool("force", false, "write into the directory even if it is not empty (files of the same names are overwritten; nothing is removed)")
	fl.Usage = func() {
		fmt.Fprintln(stderr, "usage: go run ./examples/demo -o DIR [-force]")
		fmt.Fprintln(stderr, "Writes a deterministic demo TensorBoard log directory to DIR.")
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return err
	}
	if *out == "" || fl.NArg() > 0 {
		fl.Usage()
		return errors.New("give the output directory with -o DIR, and nothing else")
	}
	if err := prepareDir(*out, *force); err != nil {
		return err
	}
	st, err := demolog.Generate(*out)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "demo: wrote %d runs, %d event files, %d events, %d points (%.2f MB) to %s\n",
		len(st.Runs), st.Files, st.Events, st.Points, float64(st.Bytes)/1e6, *out)
	return nil
}

// prepareDir creates dir, or accepts it when it is an empty directory (or
// any directory, with force).
func prepareDir(dir string, force bool) error {
	info, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return os.MkdirAll(dir, 0o755)
	case err != nil:
		return err
	case !info.IsDir():
		return fmt.Errorf("%s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) > 0 && !force {
		return fmt.Errorf("%s exists and is not empty; choose a new directory, or pass -force to write into it (same-named files are overwritten, nothing is removed)", dir)
	}
	return nil
}
