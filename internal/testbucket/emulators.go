package testbucket

import (
	"bytes"
	"net/http"
	"path/filepath"
	"testing"
)

// StartFakeGCS starts the fake-gcs-server TRAINREPORT_FAKE_GCS names on a
// free port of 127.0.0.1 (in memory, over HTTP), makes each of buckets,
// and points the test's environment at it as a user points a program at
// an emulator: STORAGE_EMULATOR_HOST=127.0.0.1:PORT, which the Cloud
// Storage client (and gocloud's gcsblob) reads, and no Google credential
// file. It returns that host. The server is killed when the test ends.
// Without TRAINREPORT_FAKE_GCS the test is skipped (failed in CI):
// `make test-gcs` builds the server, `make test` sets the variable.
func StartFakeGCS(t testing.TB, buckets ...string) string {
	t.Helper()
	exe := emulator(t, "TRAINREPORT_FAKE_GCS", "make test-gcs builds fake-gcs-server")
	port := FreePort(t)
	host := "127.0.0.1:" + port
	// -public-host and -external-url are the address clients reach it at:
	// without them the server takes a media download's host for a
	// bucket's name, and every range read fails with "the bucket does
	// not exist". -data names an empty folder, not the default /data.
	start(t, "fake-gcs-server", "http://"+host+"/storage/v1/b", exe,
		"-scheme", "http", "-host", "127.0.0.1", "-port", port,
		"-public-host", host, "-external-url", "http://"+host,
		"-backend", "memory", "-data", t.TempDir(), "-log-level", "warn")
	for _, b := range buckets {
		// The JSON API's buckets.insert; the emulator checks no
		// credential, and gocloud has no call that makes a bucket.
		body := `{"name":"` + b + `"}`
		resp, err := http.Post("http://"+host+"/storage/v1/b?project=test", "application/json", bytes.NewBufferString(body))
		if err != nil {
			t.Fatalf("making bucket %s: %v", b, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("making bucket %s: %s", b, resp.Status)
		}
	}
	SetGCSEnv(t, host)
	return host
}

// SetGCSEnv gives the test a Google Cloud environment of its own: the
// emulator at host (STORAGE_EMULATOR_HOST, "" for none), no credential
// file, no project or metadata server inherited from the machine.
func SetGCSEnv(t testing.TB, host string) {
	t.Helper()
	for k, v := range map[string]string{
		"STORAGE_EMULATOR_HOST": host, "STORAGE_EMULATOR_HOST_GRPC": "",
		"GOOGLE_APPLICATION_CREDENTIALS": filepath.Join(t.TempDir(), "none"),
		"GOOGLE_CLOUD_PROJECT":           "", "CLOUDSDK_CONFIG": t.TempDir(),
		"GCE_METADATA_HOST": "127.0.0.1:1", // never the machine's
	} {
		t.Setenv(k, v)
	}
}

// Azurite's well-known development account: every Azurite has it, and
// its key is published in Azure's documentation. It is a secret in form
// only: tests check no output holds it, as they would a real one.
const (
	AzuriteAccount = "devstoreaccount1"
	AzuriteKey     = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="
)

// StartAzurite starts the Azurite blob service TRAINREPORT_AZURITE names
// (azurite-blob, installed by `make test-azurite`) on a free port of
// 127.0.0.1, with a temporary folder for its files, waits until
// it answers, and returns its blob endpoint
// ("http://127.0.0.1:PORT/devstoreaccount1"). The server is killed when
// the test ends. It sets no credential: SetAzureKeyEnv and
// SetAzureConnectionStringEnv do, in each of the two standard ways.
// Without TRAINREPORT_AZURITE the test is skipped (failed in CI).
func StartAzurite(t testing.TB) string {
	t.Helper()
	exe := emulator(t, "TRAINREPORT_AZURITE", "make test-azurite installs Azurite")
	port := FreePort(t)
	endpoint := "http://127.0.0.1:" + port + "/" + AzuriteAccount
	dir := t.TempDir()
	// --location: its database and blobs in the test's folder, removed
	// with it; --skipApiVersionCheck: the SDK may be newer than the
	// emulator; --disableProductStyleUrl: the account is the path's first
	// element. Its access log is shown if the test fails.
	start(t, "azurite", "http://127.0.0.1:"+port+"/", exe,
		"--blobHost", "127.0.0.1", "--blobPort", port, "--location", dir,
		"--skipApiVersionCheck", "--disableProductStyleUrl")
	return endpoint
}

// azureVars are every variable gocloud's azureblob reads: each test sets
// all of them, so nothing is inherited from the machine.
var azureVars = []string{"AZURE_STORAGE_ACCOUNT", "AZURE_STORAGE_KEY", "AZURE_STORAGE_SAS_TOKEN",
	"AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGEBLOB_CONNECTIONSTRING", "AZURE_STORAGE_DOMAIN",
	"AZURE_STORAGE_PROTOCOL", "AZURE_STORAGE_IS_CDN", "AZURE_STORAGE_IS_LOCAL_EMULATOR",
	"AZURE_CLIENT_ID", "AZURE_TENANT_ID", "AZURE_CLIENT_SECRET", "AZURE_FEDERATED_TOKEN_FILE"}

// SetAzureKeyEnv points the test's environment at the emulator whose
// blob endpoint is endpoint by account and key, as gocloud reads them:
// AZURE_STORAGE_ACCOUNT, AZURE_STORAGE_KEY, and the emulator's address
// (AZURE_STORAGE_DOMAIN=127.0.0.1:PORT, AZURE_STORAGE_PROTOCOL=http,
// AZURE_STORAGE_IS_LOCAL_EMULATOR=true).
func SetAzureKeyEnv(t testing.TB, endpoint string) {
	t.Helper()
	clearAzure(t)
	host := hostOf(endpoint)
	for k, v := range map[string]string{
		"AZURE_STORAGE_ACCOUNT": AzuriteAccount, "AZURE_STORAGE_KEY": AzuriteKey,
		"AZURE_STORAGE_DOMAIN": host, "AZURE_STORAGE_PROTOCOL": "http", "AZURE_STORAGE_IS_LOCAL_EMULATOR": "true",
	} {
		t.Setenv(k, v)
	}
}

// SetAzureConnectionStringEnv points the test's environment at the
// emulator by AZURE_STORAGE_CONNECTION_STRING alone, Azurite's own form
// (its BlobEndpoint is where requests go), with
// AZURE_STORAGE_IS_LOCAL_EMULATOR=true, which gocloud asks of any
// http:// endpoint, and AZURE_STORAGE_DOMAIN, which it checks is local.
func SetAzureConnectionStringEnv(t testing.TB, endpoint string) {
	t.Helper()
	clearAzure(t)
	t.Setenv("AZURE_STORAGE_CONNECTION_STRING", ConnectionString(endpoint))
	t.Setenv("AZURE_STORAGE_IS_LOCAL_EMULATOR", "true")
	t.Setenv("AZURE_STORAGE_DOMAIN", hostOf(endpoint))
}

// ConnectionString is Azurite's connection string for the blob endpoint.
func ConnectionString(endpoint string) string {
	return "DefaultEndpointsProtocol=http;AccountName=" + AzuriteAccount + ";AccountKey=" + AzuriteKey + ";BlobEndpoint=" + endpoint + ";"
}

func clearAzure(t testing.TB) {
	for _, k := range azureVars {
		t.Setenv(k, "")
	}
}

// hostOf returns "127.0.0.1:PORT" of "http://127.0.0.1:PORT/account".
func hostOf(endpoint string) string {
	h := endpoint[len("http://"):]
	for i := range len(h) {
		if h[i] == '/' {
			return h[:i]
		}
	}
	return h
}
