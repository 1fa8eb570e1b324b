// Package testbucket sets up S3 for the bucket tests of collect/logfs and
// cmd/trainreport: credentials that reach only a local server, and moto's
// S3 server (Python) started on 127.0.0.1 for the length of a test. It is
// imported by tests only.
package testbucket

import (
	"bytes"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// Secret is the secret key SetAWSEnv sets: tests check no output holds it.
const Secret = "test-secret-never-shown"

// SetAWSEnv gives the test an AWS environment of its own: fixed test
// credentials, no configuration or credential file, no instance metadata,
// no endpoint or profile inherited from the machine.
func SetAWSEnv(t testing.TB) {
	t.Helper()
	for k, v := range map[string]string{
		"AWS_ACCESS_KEY_ID": "AKIDTEST", "AWS_SECRET_ACCESS_KEY": Secret, "AWS_REGION": "us-east-1",
		"AWS_CONFIG_FILE": filepath.Join(t.TempDir(), "none"), "AWS_SHARED_CREDENTIALS_FILE": filepath.Join(t.TempDir(), "none"),
		"AWS_EC2_METADATA_DISABLED": "true", "AWS_PROFILE": "", "AWS_ENDPOINT_URL": "",
		"AWS_RESPONSE_CHECKSUM_VALIDATION": "when_required", // as cmd/trainreport's main sets it
	} {
		t.Setenv(k, v)
	}
}

// StartMoto starts the moto_server TRAINREPORT_MOTO names on a free port
// of 127.0.0.1, waits until it answers, and returns its endpoint
// ("http://127.0.0.1:PORT"); the server is killed when the test ends, its
// request log shown when the test failed. Without TRAINREPORT_MOTO the test
// is skipped (`make test-moto` builds the server, `make test` sets the
// variable), except in CI (CI set), where it fails.
func StartMoto(t testing.TB) string {
	t.Helper()
	exe := os.Getenv("TRAINREPORT_MOTO")
	if exe == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("TRAINREPORT_MOTO is not set in CI: run the tests with make test")
		}
		t.Skip("TRAINREPORT_MOTO is not set: make test-moto builds moto_server, make test sets it")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	cmd := exec.Command(exe, "-H", "127.0.0.1", "-p", port)
	var serverLog bytes.Buffer
	cmd.Stdout, cmd.Stderr = &serverLog, &serverLog
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("moto_server's log:\n%s", serverLog.String())
		}
	})
	endpoint := "http://127.0.0.1:" + port
	// Polled until it answers: moto takes seconds to start, more on a
	// loaded machine.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(endpoint + "/moto-api/"); err == nil {
			resp.Body.Close()
			return endpoint
		}
		if time.Now().After(deadline) {
			t.Fatalf("moto_server did not answer on %s within 60 s", endpoint)
		}
	}
}
