// Package collect turns training log directories into a report model
// (package model): which runs there are, what their files hold, and every
// series the report draws. It knows nothing of HTML; package render turns
// the model into pages.
package collect
