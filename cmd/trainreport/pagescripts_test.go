package main

import (
	"embed"
	"encoding/json"
	"fmt"
	"strings"
)

// The JavaScript the browser tests run inside pages lives in testdata/js,
// a file per concern, so that it reads, diffs and lints as JavaScript
// rather than as Go strings with format verbs in it. Each file is an
// object of functions, ({name(args) {...}, ...}); Go names one and passes
// its arguments as JSON (see pageJS).
//
//go:embed testdata/js/*.js
var pageScripts embed.FS

// rawJS is an argument pageJS writes as it is, for values JSON cannot
// carry (NaN, Infinity).
type rawJS string

// pageJS returns an expression that calls function fn of testdata/js/file
// with args, each written as JSON (or as itself, for a rawJS). The
// function may call awaitReady(), which awaits window.trainreport.ready()
// for at most readyTimeout (testdata/js/ready.js), and use wait, whose
// waits on a state fail after readyTimeout too (testdata/js/wait.js): no
// script pauses for a fixed time. The first line names the call, for the
// messages of eval and waitFor.
func pageJS(file, fn string, args ...any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "/* testdata/js/%s: %s */ (() => {\n", file, fn)
	fmt.Fprintf(&b, "const awaitReady = () => (%s)(%d);\n", script("ready.js"), readyTimeout.Milliseconds())
	fmt.Fprintf(&b, "const wait = (%s)(%d);\n", script("wait.js"), readyTimeout.Milliseconds())
	fmt.Fprintf(&b, "return (%s).%s(", script(file), fn)
	for i, a := range args {
		if i > 0 {
			b.WriteString(", ")
		}
		if r, ok := a.(rawJS); ok {
			b.WriteString(string(r))
			continue
		}
		j, err := json.Marshal(a)
		if err != nil {
			panic(fmt.Sprintf("pageJS(%s, %s): argument %d: %v", file, fn, i, err)) // a bug of the test
		}
		b.Write(j)
	}
	b.WriteString(");\n})()")
	return b.String()
}

// script returns the text of testdata/js/name, embedded in the test.
func script(name string) string {
	b, err := pageScripts.ReadFile("testdata/js/" + name)
	if err != nil {
		panic(err) // a bug of the test: the file is not there
	}
	return strings.TrimSpace(string(b))
}
