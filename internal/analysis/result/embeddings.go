package result

import "github.com/trainreport/trainreport/collect/model"

// Embeddings are the report's embeddings laid out: what the embeddings
// page and its data files show.
type Embeddings struct {
	// Sets are the embeddings by run and name: runs in report order, the
	// names of a run in the order of their first step in the model, the
	// steps of a name in step order.
	Sets []*EmbeddingSet
	// Methods are the titles of the methods asked for, in order ("PCA",
	// "t-SNE", "UMAP").
	Methods []string
	// MaxPCA, MaxTSNE and MaxUMAP are the points each method lays out at
	// most, MaxNeighbors the points with neighbour lists (0 for none).
	MaxPCA, MaxTSNE, MaxUMAP, MaxNeighbors int
	// Warnings say what the report's budgets left out: a line per note,
	// counting the embeddings it is on and naming the first.
	Warnings []string
}

// EmbeddingSet is one (run, embedding name) with its steps.
type EmbeddingSet struct {
	Run   *model.Run
	Name  string
	Steps []*EmbeddingStep
}

// EmbeddingStep is one embedding of the model (one step of a name) and
// its layouts.
type EmbeddingStep struct {
	Embedding *model.Embedding
	// Layout is nil when the points were not laid out (Err says why).
	Layout *EmbeddingLayout
	// Err says why the points could not be read or laid out.
	Err error
	// Skipped says which methods were left out, and why: the report's
	// budgets, or points that give them nothing to do.
	Skipped []string
	// Repeats is how many more times the source listed this very entry
	// (a projector config repeating it: same tensor, step and files),
	// merged into this one rather than laid out again.
	Repeats int
}

// EmbeddingLayout is what was computed of one embedding's N points
// (project.Compute's result).
type EmbeddingLayout struct {
	N int
	// NonFinite counts the values that were NaN or infinite: they are
	// laid out as zeros, since no method can place them.
	NonFinite int
	// Projections are one per method computed, in the order pca, tsne,
	// umap.
	Projections []Projection
	// Neighbors is nil when there are no lists (fewer than 2 points, or
	// none asked for).
	Neighbors *Neighbors
}

// Projection is one method's layout of a sample of the points.
type Projection struct {
	// Method is the method's name: "pca", "tsne" or "umap".
	Method string
	// Sample lists the points laid out, increasing indices into the
	// points; len(Sample) < N only when the method's cap sampled them.
	Sample []int32
	// Coords2 and Coords3 are the 2-D and 3-D layouts, row-major
	// len(Sample)×2 and ×3. For PCA they are the first two and three
	// principal components (zero beyond the points' dimension).
	Coords2, Coords3 []float32
	// Explained is, for PCA, the part of the variance each of the three
	// components explains.
	Explained []float64
	// Err says why the method has no layout (too few points for it);
	// Coords2 and Coords3 are then nil.
	Err error
	// Note says how the layout was made when it is not the method's run
	// over every point of Sample: copies of a point laid out once, or too
	// few distinct points for the method.
	Note string
}

// Neighbors are the nearest neighbours of a sample of the points in the
// original space, by each metric.
type Neighbors struct {
	// Sample lists the points with lists, increasing; the neighbours are
	// found among these points only.
	Sample []int32
	K      int
	// Euclidean and Cosine hold, for the i-th point of Sample, its K
	// nearest, as indices into the points (not into Sample).
	Euclidean, Cosine NeighborLists
}

// NeighborLists are the K nearest neighbours of each of a list of points,
// row-major: the neighbours of the i-th point are Index[i*K:(i+1)*K],
// nearest first, at the distances Dist[i*K:(i+1)*K]. A point is never its
// own neighbour (a copy of it is, at distance 0); equal distances are
// ordered by index. knn.Search finds them, indices into the points
// searched; Neighbors holds them with indices into the embedding's points.
type NeighborLists struct {
	K     int
	Index []int32
	Dist  []float32
}

// N returns the number of points with lists.
func (l NeighborLists) N() int {
	if l.K == 0 {
		return 0
	}
	return len(l.Index) / l.K
}
