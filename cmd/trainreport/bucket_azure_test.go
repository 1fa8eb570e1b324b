//go:build azure

package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob"

	"github.com/trainreport/trainreport/internal/testbucket"
)

// gocloud's azblob:// opener reads the environment once per process, at
// its first bucket, and keeps what it read: a second way of giving the
// account in the same process would go unused. So each way runs in a
// process of its own, the test binary run again for TestAzureChild
// (TRAINREPORT_AZURE_CHILD names the way, TRAINREPORT_AZURE_ENDPOINT the
// blob endpoint), and this process never opens an azblob:// bucket.

// TestAzuriteEqualsDisk runs the bucket test against Azurite's blob
// service, started on 127.0.0.1 on a free port and stopped by the test,
// reached as a user reaches an account: by account and key, then by a
// connection string, both from the environment and nothing in the URL.
// TRAINREPORT_AZURITE names its azurite-blob; `make test` installs it
// (make test-azurite), sets it and runs this file (build tag azure).
func TestAzuriteEqualsDisk(t *testing.T) {
	endpoint := testbucket.StartAzurite(t)
	// gocloud makes no container: the SDK does, once.
	c, err := azblob.NewClientFromConnectionString(testbucket.ConnectionString(endpoint), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateContainer(context.Background(), "logs", nil); err != nil {
		t.Fatalf("making container logs: %v", err)
	}
	for _, way := range []string{"key", "connection-string"} {
		t.Run(way, func(t *testing.T) { runAzureChild(t, way, endpoint) })
	}
}

// TestAzureUnreachableSaysVariable: an account whose endpoint is a closed
// port makes one line naming the log directory and the variable that gave
// the endpoint, for a connection string (a report) and for account and
// key (a part written). The SDK retries a refused connection three times
// (0.8, 1.6, 3.2 s and jitter): each takes seconds.
func TestAzureUnreachableSaysVariable(t *testing.T) {
	endpoint := "http://127.0.0.1:" + testbucket.ClosedPort(t) + "/" + testbucket.AzuriteAccount
	for _, way := range []string{"unreachable-connection-string", "unreachable-key"} {
		t.Run(way, func(t *testing.T) { runAzureChild(t, way, endpoint) })
	}
}

// runAzureChild runs TestAzureChild in a new process of the test binary,
// for the way given and the blob endpoint, and fails if it did not pass.
func runAzureChild(t *testing.T, way, endpoint string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestAzureChild$", "-test.count=1", "-test.v", "-test.timeout=5m")
	cmd.Env = append(os.Environ(), "TRAINREPORT_AZURE_CHILD="+way, "TRAINREPORT_AZURE_ENDPOINT="+endpoint)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestAzureChild") {
		t.Fatalf("TestAzureChild (%s): %v\n%s", way, err, out)
	}
	t.Logf("TestAzureChild (%s):\n%s", way, out)
}

// TestAzureChild is one way of reaching Azure, run by runAzureChild in a
// process of its own; it is skipped otherwise.
func TestAzureChild(t *testing.T) {
	way, endpoint := os.Getenv("TRAINREPORT_AZURE_CHILD"), os.Getenv("TRAINREPORT_AZURE_ENDPOINT")
	host := strings.Split(endpoint+"//", "/")[2] // 127.0.0.1:PORT
	if way == "" {
		t.Skip("run by TestAzuriteEqualsDisk and TestAzureUnreachableSaysVariable")
	}
	switch way {
	case "key":
		testbucket.SetAzureKeyEnv(t, endpoint)
		testEmulatedBucket(t, "az://logs", "")
	case "connection-string":
		testbucket.SetAzureConnectionStringEnv(t, endpoint)
		testEmulatedBucket(t, "az://logs", "")
	case "unreachable-connection-string":
		testbucket.SetAzureConnectionStringEnv(t, endpoint)
		checkUnreachable(t, "az://logs/run", false, "cannot connect to "+host, "AZURE_STORAGE_CONNECTION_STRING")
	case "unreachable-key":
		testbucket.SetAzureKeyEnv(t, endpoint)
		checkUnreachable(t, "az://logs/parts", true, "cannot connect to "+host, "AZURE_STORAGE_DOMAIN="+host)
	default:
		t.Fatalf("TRAINREPORT_AZURE_CHILD=%s: not a way", way)
	}
}
