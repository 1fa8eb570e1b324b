package main

import (
	"flag"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/trainreport/trainreport/internal/analysis"
	"github.com/trainreport/trainreport/internal/analysis/reduce/project"
)

// embeddingConfig is what the embedding flags set: the methods and caps of
// each embedding, the report's budgets of t-SNE and UMAP points and of
// estimated work.
type embeddingConfig struct {
	opt                  project.Options
	totalTSNE, totalUMAP int
	// budget is analysis.Options.EmbeddingBudget: 0 the default, negative
	// no bound.
	budget int64
}

// apply sets o's embedding options to c's, with progress told of the
// layouts.
func (c embeddingConfig) apply(o *analysis.Options, progress func(analysis.EmbeddingProgress)) {
	o.Embeddings, o.EmbeddingTotalTSNE, o.EmbeddingTotalUMAP = c.opt, c.totalTSNE, c.totalUMAP
	o.EmbeddingBudget, o.EmbeddingProgress = c.budget, progress
}

// embeddingFlags adds --embedding-methods, --embedding-max-points and
// --embedding-budget, which fill c.
func embeddingFlags(fs *flag.FlagSet, c *embeddingConfig) {
	fs.Func("embedding-budget", fmt.Sprintf("bound the work of laying out all the embeddings to `N` estimated core-seconds, estimated from their shapes before any is read; past it an embedding keeps its PCA and says which methods were left out, and why (default %d; 0 removes the bound)",
		analysis.DefaultEmbeddingBudget/project.WorkPerSecond),
		func(s string) error {
			n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
			switch {
			case err != nil || n < 0:
				return fmt.Errorf("%q is not a number of core-seconds, 0 or more", s)
			case n == 0:
				c.budget = -1
			case n > math.MaxInt64/project.WorkPerSecond:
				c.budget = math.MaxInt64
			default:
				c.budget = n * project.WorkPerSecond
			}
			return nil
		})
	opt := &c.opt
	fs.Func("embedding-methods", "lay embeddings out by `LIST`, comma-separated among pca, tsne and umap (default pca,tsne,umap; PCA is always computed)",
		func(s string) error {
			m, err := parseEmbeddingMethods(s)
			opt.Methods = m
			return err
		})
	fs.Func("embedding-max-points", fmt.Sprintf("cap the points each embedding method lays out, as `LIST` of method=N among pca, tsne, umap and neighbors, and the points t-SNE and UMAP lay out over all embeddings, tsne-total and umap-total (default pca=%d,tsne=%d,umap=%d,neighbors=%d,tsne-total=%d,umap-total=%d); beyond a cap, a seeded random sample",
		project.DefaultMaxPCA, project.DefaultMaxTSNE, project.DefaultMaxUMAP, project.DefaultMaxNeighbors, analysis.DefaultEmbeddingTotalTSNE, analysis.DefaultEmbeddingTotalUMAP),
		func(s string) error { return parseEmbeddingCaps(s, c) })
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

// parseEmbeddingCaps parses "tsne=2000,umap=1000" into c's caps.
func parseEmbeddingCaps(s string, c *embeddingConfig) error {
	opt := &c.opt
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
		case "tsne-total":
			c.totalTSNE = n
		case "umap-total":
			c.totalUMAP = n
		default:
			return fmt.Errorf("unknown cap %q in %q (pca, tsne, umap, neighbors, tsne-total or umap-total)", name, f)
		}
	}
	return nil
}
