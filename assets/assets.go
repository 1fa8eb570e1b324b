// Package assets embeds the scripts and styles every report page loads:
// Apache ECharts 5.6.0 (echarts.min.js, from the echarts npm package, with
// its licence in echarts-LICENSE and echarts-NOTICE), ECharts GL 2.1.0
// (echarts-gl.min.js, from the echarts-gl npm package, with its licence in
// echarts-gl-LICENSE; the embeddings page's 3-D scatter), and our own app.js
// (the runtime every page shares: state, filters, the chart lifecycle),
// regexp.js (the linear-time matcher of the pages' filter and group
// patterns, loaded before app.js) and style.css, and each page's own script
// (<page>.js, over scalarchart.js for the two pages of line charts) and
// style (<page>.css).
package assets

import "embed"

// FS holds the files that are copied to a report's assets/ directory.
//
//go:embed echarts.min.js echarts-LICENSE echarts-NOTICE echarts-gl-LICENSE *.js *.css
var FS embed.FS
