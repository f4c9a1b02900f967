package crowd

// The tests of package crowd_test, which read the football and poker
// domains (they import crowd), check their output with these.
var (
	CheckOutput  = checkOutput
	RunBaselines = runBaselines
)
