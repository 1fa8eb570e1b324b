// Package mspb holds the Go types generated from our own .proto files for
// MindSpore's summary and lineage messages (docs/FORMATS.md section 21).
// Run `make generate` after changing a .proto file.
package mspb
