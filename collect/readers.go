package collect

import (
	"slices"

	"github.com/trainreport/trainreport/collect/discover"
	"github.com/trainreport/trainreport/collect/model"
)

// A reader is one format collection reads: how its files are recognised,
// how they are read into the run, and where its fixtures and fuzz targets
// are. The run reader looks formats up in readers and nowhere else names
// one, so a new format is one entry here, its detection in
// collect/discover and its own files (docs/LAYOUT.md, "A new reader").
type reader struct {
	// name is the format's name, and sections the sections of
	// docs/FORMATS.md that describe it.
	name     string
	sections []int
	// Detection, by collect/discover's rules (docs/FORMATS.md section 1):
	// files are the kinds discover gives the record files of the format
	// (TFRecord framing), side the kinds of the files it reads whole, and
	// beside the names of the files it looks for in the run's directory
	// (discover.IsInput lists them). A format read only through another's
	// files (a checkpoint, named by a projector config) has none.
	files  []discover.Kind
	side   []discover.SideKind
	beside []string
	// format names the format's files in the model (model.File.Format);
	// "" for TensorBoard's event files.
	format string
	// record reads one record of a file of the format, at offset, in the
	// run's one stream of records (the run's record files are read in
	// order, whatever their format).
	record func(rr *runReader, rec record, offset int64)
	// finish runs once the run's record files are read and its tags
	// listed, with the run's side files of the format (kinds side): it
	// reads them whole, and completes what the records gathered. Entries
	// finish in the order of the table, which is the order of the run's
	// warnings (TestReadersFinishInTableOrder).
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
		side:     []discover.SideKind{discover.ProjectorConfig, discover.OneFlowEmbeddings, discover.OneFlowExceptions, discover.TSVISProjector},
		finish:   (*runReader).readProjector,
		fixtures: []string{"projector/testdata", "testdata/oneflow-exceptions", "testdata/tsvis"},
		fuzz:     []string{"projector FuzzProjectorConfig", "projector FuzzOneFlowProjector", "projector FuzzProjectorConfigOutput"}},
	{name: "checkpoint", sections: []int{16}, // read by the projector, when a config names one
		fixtures: []string{"checkpoint/testdata"},
		fuzz:     []string{"checkpoint FuzzParseIndex", "checkpoint FuzzBlock"}},
	{name: "MindSpore summary", sections: []int{21}, files: []discover.Kind{discover.MindSpore}, format: model.FormatMindSpore,
		record:   (*runReader).mindSporeEvent,
		fixtures: []string{"testdata/mindspore"},
		fuzz:     []string{". FuzzReadMindSpore"}},
	{name: "MindSpore lineage", sections: []int{21}, files: []discover.Kind{discover.MindSporeLineage}, format: model.FormatMindSporeLineage,
		record:   (*runReader).lineageEvent,
		finish:   func(rr *runReader, _ []discover.SideFile) { rr.finishLineage() },
		fixtures: []string{"testdata/mindspore"},
		fuzz:     []string{". FuzzReadMindSpore"}},
	// TensorBoard's event files, TS-VIS's and OneFlow's names included
	// (the same framing and Event message), and the files read beside
	// them: Lightning's hparams.yaml, OneFlow's structure graph.
	{name: "TensorBoard events", sections: []int{1, 2, 3, 12, 14, 17}, files: []discover.Kind{discover.Events, discover.Empty, discover.ProfileEmpty},
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
	{name: "Visdom", sections: []int{22}, side: []discover.SideKind{discover.VisdomEnv, discover.VisdomLog},
		finish:   func(rr *runReader, side []discover.SideFile) { readVisdom(rr.run, rr.src, side) },
		fixtures: []string{"visdom/testdata"},
		fuzz:     []string{"visdom FuzzReadEnv", "visdom FuzzReadLog"}},
}

// readerOf returns the entry reading record files of kind k; every Kind
// discover gives has one (TestReaderTable).
func readerOf(k discover.Kind) *reader {
	for i := range readers {
		if slices.Contains(readers[i].files, k) {
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
			if slices.Contains(r.side, sf.Kind) {
				own = append(own, sf)
			}
		}
		r.finish(rr, own)
	}
}
