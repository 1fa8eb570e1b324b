package summary

import "github.com/trainreport/trainreport/collect/model"

// The JSON shapes of a log file and of a warning, which summary.json
// (render) and `trainreport inspect --json` both write: declared once, so
// that the two outputs say them alike.

// LogFile is a log file read for a run.
type LogFile struct {
	Path    string `json:"path"`
	Bytes   int64  `json:"bytes"`
	Records int    `json:"records"`
	Status  string `json:"status"`
}

// LogFileOf is f's shape.
func LogFileOf(f model.File) LogFile {
	return LogFile{Path: f.Rel, Bytes: f.Size, Records: f.Records, Status: f.Status}
}

// Warning is a warning of the logs: the file it concerns, the offset in it
// (null when it concerns the whole file) and what went wrong.
type Warning struct {
	File    string `json:"file"`
	Offset  *int64 `json:"offset"`
	Message string `json:"message"`
}

// WarningOf is w's shape.
func WarningOf(w model.Warning) Warning {
	sw := Warning{File: w.File, Message: w.Msg}
	if w.Offset >= 0 {
		off := w.Offset
		sw.Offset = &off
	}
	return sw
}

// Warnings are the shapes of ws, an empty list (never null) for none.
func Warnings(ws []model.Warning) []Warning {
	out := make([]Warning, 0, len(ws))
	for _, w := range ws {
		out = append(out, WarningOf(w))
	}
	return out
}
