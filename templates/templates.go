// Package templates holds the html/template sources of the report pages:
// layout.html wraps every page, and each page defines "main-<name>".
package templates

import (
	"embed"
	"html/template"
)

//go:embed *.html
var files embed.FS

// Parse parses every page template with the given functions.
func Parse(funcs template.FuncMap) (*template.Template, error) {
	return template.New("").Funcs(funcs).ParseFS(files, "*.html")
}
