package collect

// finishPlugins completes what the plugins gathered once every file of the
// run is read.
func (rr *runReader) finishPlugins() {
	rr.finishProjector()
	rr.finishLineage()
	rr.finishHParams()
	rr.finishGraphs()
}
