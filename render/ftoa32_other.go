//go:build !amd64 || purego

package render

// useAVX512 is false off amd64 and with the purego build tag: there is no
// vector kernel, and putFloat32s is putFloat32sGo.
const useAVX512 = false

// ftoa32LaneScales is the kernel's table, of which there is none here.
type ftoa32LaneScales struct{}

// ftoa32Lanes is the kernel's table, of which there is none here.
var ftoa32Lanes ftoa32LaneScales

// putFloat32sAVX512 takes no value where there is no kernel.
func putFloat32sAVX512(dst []byte, vs []float64, scales *ftoa32LaneScales) (n, done int) {
	return 0, 0
}
