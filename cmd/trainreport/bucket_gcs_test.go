//go:build gcs

package main

import (
	"testing"

	"github.com/trainreport/trainreport/internal/testbucket"
)

// TestGCSEmulatorEqualsDisk runs the bucket test against fake-gcs-server,
// started on 127.0.0.1 on a free port and stopped by the test, reached as
// a user reaches it: STORAGE_EMULATOR_HOST and nothing in the URL.
// TRAINREPORT_FAKE_GCS names the server; `make test` builds it (make
// test-gcs), sets it and runs this file (build tag gcs).
func TestGCSEmulatorEqualsDisk(t *testing.T) {
	testbucket.StartFakeGCS(t, "logs")
	testEmulatedBucket(t, "gs://logs", "")
}

// TestGCSUnreachableSaysVariable: an emulator that is not there (a closed
// port) makes one line naming the log directory and the variable that
// gave the endpoint, at once rather than after the client's retries.
func TestGCSUnreachableSaysVariable(t *testing.T) {
	host := "127.0.0.1:" + testbucket.ClosedPort(t)
	testbucket.SetGCSEnv(t, host)
	checkUnreachable(t, "gs://logs/run", false, "cannot connect to "+host, "STORAGE_EMULATOR_HOST="+host)
	checkUnreachable(t, "gs://logs/parts", true, "cannot connect to "+host, "STORAGE_EMULATOR_HOST="+host)
}
