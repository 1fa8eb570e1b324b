package render

import (
	"io/fs"

	"github.com/trainreport/trainreport/assets"
)

// assetFiles returns the embedded assets, copied to assets/ in the site.
func assetFiles() ([]file, error) {
	var files []file
	err := fs.WalkDir(assets.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(assets.FS, p)
		files = append(files, file{"assets/" + p, b})
		return err
	})
	return files, err
}
