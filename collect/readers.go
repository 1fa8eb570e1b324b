package collect

import (
	"strings"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/model"
	"github.com/trainreport/trainreport/collect/visdom"
)

// A reader is one format collection reads: how its files are recognised,
// how they are read into the run, and where its fixtures and fuzz targets
// are. Discovery and the run reader look formats up in readers and nowhere
// else name one, so a new format is one entry here and its own files
// (docs/LAYOUT.md, "A new reader").
type reader struct {
	// name is the format's name, and sections the sections of
	// docs/FORMATS.md that describe it.
	name     string
	sections []int
	// detect are the rules by which collect/discover finds the format's
	// files (docs/FORMATS.md section 1): record files (TFRecord framing),
	// which record reads, and side files, read whole, which finish is
	// given. Discovery tries the rules in the order of the table
	// (Detection). beside are the paths, relative to a run's directory, of
	// the files the format reads beside a run's files by name. A format
	// read only through another's files (a checkpoint, named by a
	// projector config) has neither.
	detect []discover.Rule
	beside []string
	// format names the format's files in the model (model.File.Format);
	// "" for TensorBoard's event files.
	format string
	// record reads one record of a file of the format, at offset, in the
	// run's one stream of records (the run's record files are read in
	// order, whatever their format).
	record func(rr *runReader, rec record, offset int64)
	// finish runs once the run's record files are read and its tags
	// listed, with the run's side files of the format: it reads them
	// whole, and completes what the records gathered. Entries finish in
	// the order of the table, which is the order of the run's warnings
	// (TestReadersFinishInTableOrder).
	finish func(rr *runReader, side []discover.SideFile)
	// fixtures are the directories (relative to collect/) holding the
	// format's test inputs, and fuzz the fuzz targets that read it
	// (relative to collect/: the package directory and the target).
	fixtures []string
	fuzz     []string
}

// readers is every format collection reads.
var readers = []reader{
	{name: "projector", sections: []int{16, 17},
		detect: []discover.Rule{
			{Kind: kindProjectorConfig, Side: true, Match: projectorConfigFile},
			{Kind: kindTSVISProjector, Side: true, Match: tsvisProjectorFile},
			{Kind: kindOneFlowExceptions, Side: true, Match: oneFlowExceptionsFile},
			{Kind: kindOneFlowEmbeddings, Side: true, Match: oneFlowEmbeddingsFile},
		},
		finish:   (*runReader).readProjector,
		fixtures: []string{"projector/testdata", "testdata/oneflow-exceptions", "testdata/tsvis"},
		fuzz:     []string{"projector FuzzProjectorConfig", "projector FuzzOneFlowProjector", "projector FuzzProjectorConfigOutput"}},
	{name: "checkpoint", sections: []int{16}, // read by the projector, when a config names one
		fixtures: []string{"checkpoint/testdata"},
		fuzz:     []string{"checkpoint FuzzParseIndex", "checkpoint FuzzBlock"}},
	// MindSpore's rules come before TensorBoard's: a name both take is
	// MindSpore's.
	{name: "MindSpore summary", sections: []int{21}, format: model.FormatMindSpore,
		detect:   []discover.Rule{{Kind: kindMindSpore, Match: mindSporeFile}},
		record:   (*runReader).mindSporeEvent,
		fixtures: []string{"testdata/mindspore"},
		fuzz:     []string{". FuzzReadMindSpore"}},
	{name: "MindSpore lineage", sections: []int{21}, format: model.FormatMindSporeLineage,
		detect:   []discover.Rule{{Kind: kindMindSporeLineage, Match: mindSporeLineageFile}},
		record:   (*runReader).lineageEvent,
		finish:   func(rr *runReader, _ []discover.SideFile) { rr.finishLineage() },
		fixtures: []string{"testdata/mindspore"},
		fuzz:     []string{". FuzzReadMindSpore"}},
	// TensorBoard's event files, TS-VIS's and OneFlow's names included
	// (the same framing and Event message), and the files read beside
	// them: Lightning's hparams.yaml, OneFlow's structure graph. A file
	// given alone that no other rule takes is read as an event file.
	{name: "TensorBoard events", sections: []int{1, 2, 3, 12, 14, 17},
		detect: []discover.Rule{
			{Kind: kindProfileEmpty, Match: func(c discover.Candidate) (string, bool) {
				return tensorBoardFile(c, strings.HasSuffix(c.Name, ".profile-empty"))
			}},
			{Kind: kindEmpty, Match: func(c discover.Candidate) (string, bool) { return tensorBoardFile(c, c.Size == 0) }},
			{Kind: KindEvents, Match: func(c discover.Candidate) (string, bool) { return tensorBoardFile(c, true) }},
		},
		beside: append([]string{hparamsYAML}, structureGraphFiles...),
		record: (*runReader).tensorBoardRecord,
		finish: func(rr *runReader, _ []discover.SideFile) {
			rr.finishHParams()
			rr.finishGraphs() // every source's graphs, MindSpore's too
		},
		fixtures: []string{"testdata/writers", "testdata/tensorboard", "testdata/tsvis", "testdata/hparams", "testdata/linspace"},
		fuzz:     []string{". FuzzReadEvents", ". FuzzHParamsYAML", "tfrecord FuzzReader"}},
	// One reader for both of Visdom's files: tags carry the environment's
	// name when the run's files hold several.
	{name: "Visdom", sections: []int{22},
		detect: []discover.Rule{
			{Kind: kindVisdomEnv, Side: true, SniffBytes: visdom.SniffBytes,
				Match: func(c discover.Candidate) (string, bool) { return visdomFile(c, ".json") },
				Sniff: func(head []byte) bool { return visdom.Sniff(head) == visdom.EnvFile }},
			{Kind: kindVisdomLog, Side: true, SniffBytes: visdom.SniffBytes,
				Match: func(c discover.Candidate) (string, bool) { return visdomFile(c, ".json", ".log") },
				Sniff: func(head []byte) bool { return visdom.Sniff(head) == visdom.LogFile }},
		},
		finish:   func(rr *runReader, side []discover.SideFile) { readVisdom(rr.run, rr.src, side) },
		fixtures: []string{"visdom/testdata"},
		fuzz:     []string{"visdom FuzzReadEnv", "visdom FuzzReadLog"}},
}

// Detection returns the rules by which collect/discover finds the files of
// every format of the table, in its order: what Collect discovers a log
// directory by, and what tells the CLI a log directory's inputs.
func Detection() discover.Rules {
	var rs discover.Rules
	for _, r := range readers {
		rs.Rules = append(rs.Rules, r.detect...)
		rs.Beside = append(rs.Beside, r.beside...)
	}
	return rs
}

// finds reports whether the entry's rules find files of kind k.
func (r *reader) finds(k discover.Kind) bool {
	for _, d := range r.detect {
		if d.Kind == k {
			return true
		}
	}
	return false
}

// readerOf returns the entry whose rules find files of kind k, which
// reads them: every kind discover gives comes from an entry's rules.
func readerOf(k discover.Kind) *reader {
	for i := range readers {
		if readers[i].finds(k) {
			return &readers[i]
		}
	}
	return nil
}

// finishReaders lets each format finish, in the order of the table, with
// its side files of the run.
func (rr *runReader) finishReaders() {
	side := rr.side
	rr.side = nil
	for i := range readers {
		r := &readers[i]
		if r.finish == nil {
			continue
		}
		var own []discover.SideFile
		for _, sf := range side {
			if r.finds(sf.Kind) {
				own = append(own, sf)
			}
		}
		r.finish(rr, own)
	}
}
