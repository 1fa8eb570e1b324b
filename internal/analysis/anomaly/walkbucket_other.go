//go:build !amd64 || purego

package anomaly

import "github.com/trainreport/trainreport/collect/model"

// walkBucket is walkBucketGo: this build has no vector walk.
func walkBucket(pts []model.Point, out []float64, maxStep int64) bucketWalk {
	return walkBucketGo(pts, out, maxStep)
}

// walkBucketWalls is walkBucketWallsGo: this build has no vector walk.
func walkBucketWalls(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk {
	return walkBucketWallsGo(pts, out, walls, maxStep)
}

// vectorWalk returns nil: this build has no vector walk.
func vectorWalk() (func(pts []model.Point, out, walls []float64, maxStep int64) bucketWalk, string) {
	return nil, "built without the assembly walk (not amd64, or the purego tag)"
}
