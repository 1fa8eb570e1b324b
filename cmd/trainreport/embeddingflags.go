package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/collect/reduce/project"
)

// embeddingFlags adds --embedding-methods and --embedding-max-points,
// which fill opt.
func embeddingFlags(fs *flag.FlagSet, opt *project.Options) {
	fs.Func("embedding-methods", "lay embeddings out by `LIST`, comma-separated among pca, tsne and umap (default pca,tsne,umap; PCA is always computed)",
		func(s string) error {
			m, err := parseEmbeddingMethods(s)
			opt.Methods = m
			return err
		})
	fs.Func("embedding-max-points", fmt.Sprintf("cap the points each embedding method lays out, as `LIST` of method=N among pca, tsne, umap and neighbors (default pca=%d,tsne=%d,umap=%d,neighbors=%d); beyond a cap, a seeded random sample",
		project.DefaultMaxPCA, project.DefaultMaxTSNE, project.DefaultMaxUMAP, project.DefaultMaxNeighbors),
		func(s string) error { return parseEmbeddingCaps(s, opt) })
}

// parseEmbeddingMethods parses "pca,tsne,umap".
func parseEmbeddingMethods(s string) ([]project.Method, error) {
	methods := []project.Method{}
	for _, f := range strings.Split(s, ",") {
		m := project.Method(strings.ToLower(strings.TrimSpace(f)))
		if m == "" {
			continue
		}
		if !slices.Contains(project.Methods, m) {
			return nil, fmt.Errorf("unknown embedding method %q (pca, tsne or umap)", f)
		}
		if !slices.Contains(methods, m) {
			methods = append(methods, m)
		}
	}
	return methods, nil
}

// parseEmbeddingCaps parses "tsne=2000,umap=1000" into opt's caps.
func parseEmbeddingCaps(s string, opt *project.Options) error {
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		name, val, ok := strings.Cut(f, "=")
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if !ok || err != nil || n < 1 {
			return fmt.Errorf("%q is not method=N with N at least 1", f)
		}
		switch strings.ToLower(strings.TrimSpace(name)) {
		case "pca":
			opt.MaxPCA = n
		case "tsne":
			opt.MaxTSNE = n
		case "umap":
			opt.MaxUMAP = n
		case "neighbors", "neighbours":
			opt.MaxNeighbors = n
		default:
			return fmt.Errorf("unknown method %q in %q (pca, tsne, umap or neighbors)", name, f)
		}
	}
	return nil
}
