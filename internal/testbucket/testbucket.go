// Package testbucket sets up object storage for the bucket tests of
// collect/logfs and cmd/trainreport: credentials that reach only a local
// server, and the emulators (moto's S3 server, fake-gcs-server, Azurite)
// started on 127.0.0.1 for the length of a test (emulators.go). It is
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
	exe := emulator(t, "TRAINREPORT_MOTO", "make test-moto builds moto_server")
	port := FreePort(t)
	endpoint := "http://127.0.0.1:" + port
	start(t, "moto_server", endpoint+"/moto-api/", exe, "-H", "127.0.0.1", "-p", port)
	return endpoint
}

// emulator returns the executable the variable env names, or skips the
// test when it is unset (fails it in CI, CI set): `make test` installs
// every emulator and sets the variables; how names the make target
// that installs this one.
func emulator(t testing.TB, env, how string) string {
	t.Helper()
	exe := os.Getenv(env)
	if exe == "" {
		if os.Getenv("CI") != "" {
			t.Fatal(env + " is not set in CI: run the tests with make test")
		}
		t.Skip(env + " is not set: " + how + ", make test sets it")
	}
	return exe
}

// FreePort returns a TCP port of 127.0.0.1 that was free a moment ago
// (a server started on it may still lose a race for it: rare, and the
// test then fails saying the server did not answer).
func FreePort(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// start runs the server exe with args, named name in messages, until the
// test ends (killed, then waited for, whatever happened: t.Cleanup runs
// after a failure or a panic too), and waits until probe answers an HTTP
// request (any status). Its output is shown when the test failed.
func start(t testing.TB, name, probe, exe string, args ...string) {
	t.Helper()
	cmd := exec.Command(exe, args...)
	var serverLog bytes.Buffer
	cmd.Stdout, cmd.Stderr = &serverLog, &serverLog
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", name, err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-exited
		if t.Failed() {
			t.Logf("%s's log:\n%s", name, serverLog.String())
		}
	})
	// Polled until it answers: the emulators take seconds to start, more
	// on a loaded machine (Azurite took 43 s with a load average of 35).
	for deadline := time.Now().Add(3 * time.Minute); ; time.Sleep(100 * time.Millisecond) {
		if resp, err := http.Get(probe); err == nil {
			resp.Body.Close()
			return
		}
		select {
		case <-exited:
			t.Fatalf("%s exited before answering on %s: %v", name, probe, cmd.ProcessState)
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s did not answer on %s within 3 minutes", name, probe)
		}
	}
}

// ClosedPort returns a port of 127.0.0.1 nothing listens on: one that was
// just free and is closed again, so a connection to it is refused.
func ClosedPort(t testing.TB) string { return FreePort(t) }
