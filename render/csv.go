package render

import (
	"bufio"
	"encoding/csv"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/internal/summary"
)

// The CSV files are the data in the form pandas, R and spreadsheets read
// (docs/OUTPUTS.md, "CSV files"): RFC 4180 as encoding/csv writes it
// (lines end in \n), a
// header row, numbers as the JSON data files write them (so the two read
// back to the same doubles), NaN and infinities as NaN, Infinity and
// -Infinity (what Python's float(), pandas and R read), a missing value
// as an empty field.

// hparamsCSVFile and scalarsCSVFile are the CSV files' paths in the site.
const (
	hparamsCSVFile = "data/hparams.csv"
	scalarsCSVFile = "data/scalars.csv"
)

// writeHParamsCSV writes j, data/hparams.json's sessions, to out as one
// table (data/hparams.csv): a row per
// session; columns run, group, status, then the hyperparameters' and the
// metrics' in j's order. A name both a hyperparameter and a metric have
// (or that is one of the first three) is told apart by " (hparam)" or
// " (metric)" after it: a table's columns must have distinct names.
func writeHParamsCSV(out io.Writer, j hparamsJSON) error {
	header := []string{"run", "group", "status"}
	seen := map[string]int{"run": 1, "group": 1, "status": 1}
	for _, c := range j.HParams {
		seen[c.Name]++
	}
	for _, c := range j.Metrics {
		seen[c.Name]++
	}
	for _, c := range j.HParams {
		header = append(header, distinct(c.Name, " (hparam)", seen))
	}
	for _, c := range j.Metrics {
		header = append(header, distinct(c.Name, " (metric)", seen))
	}
	w := csv.NewWriter(out) // buffered: it flushes every 4 KB
	w.Write(header)
	row := make([]string, 0, len(header))
	for _, s := range j.Sessions {
		row = append(row[:0], csvText(s.Run), csvText(s.Group), csvText(s.Status))
		for _, v := range append(s.HParams, s.Metrics...) {
			switch v := v.(type) {
			case nil:
				row = append(row, "")
			case summary.Scalar:
				row = append(row, string(appendCSVValue(nil, v.V, v.F32)))
			case string:
				row = append(row, csvText(v))
			default:
				panic("render: an hparams cell of a type hparamsModel does not make")
			}
		}
		if err := w.Write(row); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// distinct is name, or name+suffix when seen counts it more than once.
func distinct(name, suffix string, seen map[string]int) string {
	if seen[name] > 1 {
		return name + suffix
	}
	return name
}

// writeScalarsCSV writes every scalar point of the data files as one long
// table, a row per point: run, tag, step, wall_time, value, attempt. The
// points are the bundles' (data/scalars/), in their order: each run's
// series in tag order, the line's points (attempt empty) and then each
// attempt's superseded points (attempt its number).
func (r *Report) writeScalarsCSV(w io.Writer) error {
	byRun := map[*model.Run][]*seriesView{}
	for _, tv := range r.tags {
		for _, sv := range tv.series {
			byRun[sv.run] = append(byRun[sv.run], sv)
		}
	}
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString(scalarsCSVHeader)
	var c csvRows
	for _, run := range r.rep.Runs {
		c.run(bw, run, byRun[run])
	}
	return bw.Flush()
}

// scalarsCSVHeader is the header row of data/scalars.csv.
const scalarsCSVHeader = "run,tag,step,wall_time,value,attempt\n"

// csvRows writes the rows of data/scalars.csv, a run at a time, reusing
// its line's buffer.
type csvRows struct{ line []byte }

// run writes the rows of run's series (in tag order) to bw.
func (c *csvRows) run(bw *bufio.Writer, run *model.Run, series []*seriesView) {
	if len(series) == 0 {
		return
	}
	row := func(run, tag []byte, p *model.Point, f32 bool, attempt []byte) {
		line := append(c.line[:0], run...)
		line = append(line, tag...)
		line = strconv.AppendInt(line, p.Step, 10)
		line = append(line, ',')
		line = appendCSVValue(line, p.WallTime, false)
		line = append(line, ',')
		line = appendCSVValue(line, p.Value, f32)
		line = append(line, ',')
		line = append(line, attempt...)
		line = append(line, '\n')
		bw.Write(line)
		c.line = line
	}
	runField := appendCSVField(nil, run.Name)
	for _, sv := range series {
		tag := appendCSVField(nil, sv.scalar.Tag)
		k := kept{sv.scalar.Points, sv.data}
		for i := range k.len() {
			row(runField, tag, k.at(i), sv.scalar.Float32, nil)
		}
		for _, fv := range sv.faded {
			attempt := strconv.AppendInt(nil, int64(fv.Superseded.Attempt), 10)
			k := kept{fv.Superseded.Points, fv.Data}
			for i := range k.len() {
				row(runField, tag, k.at(i), sv.scalar.Float32, attempt)
			}
		}
	}
}

// appendCSVField appends s, as csvText makes it, as a field of a row
// followed by its comma, quoted when encoding/csv's Writer quotes it.
func appendCSVField(b []byte, s string) []byte {
	s = csvText(s)
	if !fieldNeedsQuotes(s) {
		return append(append(b, s...), ',')
	}
	b = append(b, '"')
	b = append(b, strings.ReplaceAll(s, `"`, `""`)...)
	return append(b, '"', ',')
}

// fieldNeedsQuotes is encoding/csv's rule (Writer.fieldNeedsQuotes): a
// comma, quote or line break inside, a leading space, or \. alone.
func fieldNeedsQuotes(s string) bool {
	if s == "" {
		return false
	}
	if s == `\.` || strings.ContainsAny(s, "\",\r\n") {
		return true
	}
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsSpace(r)
}

// appendCSVValue appends v as the JSON data files write it, NaN and the
// infinities as words without quotes.
func appendCSVValue(b []byte, v float64, f32 bool) []byte {
	switch {
	case math.IsNaN(v):
		return append(b, "NaN"...)
	case math.IsInf(v, 1):
		return append(b, "Infinity"...)
	case math.IsInf(v, -1):
		return append(b, "-Infinity"...)
	}
	return appendValue(b, v, f32)
}

// csvText is a name or text from a log made safe to open in a
// spreadsheet: a cell that starts with =, +, -, @, a tab or a carriage
// return is a formula to Excel, LibreOffice and Google Sheets, and a log
// could make one fetch an address or run a command when the table is
// opened (CSV injection). Such a text gets a leading ', as OWASP
// advises; numbers are written as numbers and never need it.
func csvText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
