package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/trainreport/trainreport/collect/logfs"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/analysis/result"
)

// annotationsFlag defines --annotations, the CI annotations printed once
// the report is written.
func annotationsFlag(fs *flag.FlagSet, p *string) {
	fs.Func("annotations", "print a CI annotation for each `FORMAT` finding on stdout: github, a workflow command per failed gate (::error), anomaly and damaged or skipped file (::warning)",
		func(s string) error {
			if s != "github" {
				return fmt.Errorf("%q: want github", s)
			}
			*p = s
			return nil
		})
}

// maxAnnotations bounds each kind of annotation printed: GitHub shows ten
// of each per step and fifty per job, and a sweep's anomalies could print
// thousands of lines for none of them to be seen. A last line says how many
// were left out, and where they all are.
const maxAnnotations = 50

// annotation is one finding, as a workflow command states it.
type annotation struct {
	level string // "error" or "warning"
	file  string // where the finding is, "" for none
	title string
	msg   string
}

// writeGitHubAnnotations prints the findings of the report of rep, written
// into site, as GitHub Actions workflow commands
// (https://docs.github.com/actions/reference/workflow-commands-for-github-actions):
// an ::error per failed gate, a ::warning per anomaly and per warning of
// the logs (a damaged, truncated or skipped file), each with its file.
func writeGitHubAnnotations(w io.Writer, rep *model.Report, an *result.Analysis, site string) error {
	var gates, anomalies, warnings []annotation
	for _, g := range failedGates(an) {
		gates = append(gates, annotation{level: "error", title: "trainreport: gate failed", msg: g.Text})
	}
	logdirs := map[string]string{}
	for _, l := range rep.Logdirs {
		logdirs[l.Name] = l.Path
	}
	runs := map[string]*model.Run{}
	for _, r := range rep.Runs {
		runs[r.Name] = r
	}
	for _, a := range an.Anomalies {
		var file string
		if r := runs[a.Run]; r != nil {
			file = annotationFile(logdirs[r.Logdir], r.Path)
		}
		anomalies = append(anomalies, annotation{level: "warning", file: file, title: "trainreport: " + a.Rule, msg: a.Message})
	}
	for _, wr := range rep.Warnings {
		// The report's own warnings name their file whole.
		warnings = append(warnings, warningAnnotation(annotationFile("", wr.File), wr))
	}
	for _, r := range rep.Runs {
		for _, wr := range r.Warnings {
			warnings = append(warnings, warningAnnotation(annotationFile(logdirs[r.Logdir], wr.File), wr))
		}
	}
	for _, group := range [][]annotation{gates, anomalies, warnings} {
		for i, a := range group {
			if i == maxAnnotations {
				if _, err := fmt.Fprintf(w, "::%s title=%s::%s\n", a.level, escapeProperty("trainreport: more findings"),
					escapeData(fmt.Sprintf("%d more %s findings are not annotated: see %s", len(group)-i, a.level, filepath.Join(site, "index.html")))); err != nil {
					return err
				}
				break
			}
			if _, err := io.WriteString(w, a.command()); err != nil {
				return err
			}
		}
	}
	return nil
}

func warningAnnotation(file string, w model.Warning) annotation {
	msg := w.Msg
	if w.Offset >= 0 {
		// A workflow command locates by line; a log's place is a byte.
		msg = fmt.Sprintf("offset %d: %s", w.Offset, msg)
	}
	return annotation{level: "warning", file: file, title: "trainreport: log file", msg: msg}
}

// command is the annotation as one workflow command line. What comes from
// a log (a tag, a file name) is made printable first: a control character
// could otherwise end the command or draw on the log's terminal.
func (a annotation) command() string {
	var b strings.Builder
	b.WriteString("::" + a.level + " ")
	if a.file != "" {
		b.WriteString("file=" + escapeProperty(printable(a.file)) + ",")
	}
	b.WriteString("title=" + escapeProperty(printable(a.title)) + "::" + escapeData(printable(a.msg)) + "\n")
	return b.String()
}

// annotationFile is the path of rel in the log directory dir as GitHub
// places an annotation: relative to the workspace (the repository's
// checkout) when it is inside it, so that the annotation shows on the
// file; a bucket URL without its query, which may hold credentials.
func annotationFile(dir, rel string) string {
	if logfs.IsURL(dir) {
		return logfs.Redact(strings.TrimSuffix(dir, "/") + "/" + rel)
	}
	if logfs.IsURL(rel) {
		return logfs.Redact(rel)
	}
	p := filepath.Join(dir, filepath.FromSlash(path.Clean("/" + rel))[1:])
	if dir == "" {
		p = filepath.FromSlash(rel)
	}
	base := os.Getenv("GITHUB_WORKSPACE")
	if base == "" {
		base, _ = os.Getwd()
	}
	abs, err := filepath.Abs(p)
	if err != nil || base == "" {
		return filepath.ToSlash(p)
	}
	if r, err := filepath.Rel(base, abs); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(abs)
}

// escapeData escapes a workflow command's message as GitHub's toolkit does
// (@actions/core's escapeData): a newline would end the command.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value
// (@actions/core's escapeProperty): ":" and "," end a value.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
