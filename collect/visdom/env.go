package visdom

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
)

// ReadEnv reads a saved environment, data, the whole file; name is the
// environment's name by its file name ("main" for main.json), which a
// hash_<sha256>.json file's "name" field replaces.
func ReadEnv(data []byte, name string) Result {
	r := &reader{data: data}
	var doc struct {
		Jsons map[string]json.RawMessage `json:"jsons"`
		Name  *flexString                `json:"name"`
	}
	data, deep, err := unmarshal(data, &doc)
	if err != nil {
		r.res.Damaged = true
		r.problem(jsonOffset(err), "not a Visdom environment: %v", err)
		return r.res
	}
	r.data = data
	if doc.Name != nil && strings.HasPrefix(name, "hash_") && *doc.Name != "" {
		name = string(*doc.Name)
	}
	env := &Env{Name: name}
	ids := slices.Sorted(maps.Keys(doc.Jsons))
	if len(ids) > maxWindows {
		r.problem(0, "%d of its %d windows read", maxWindows, len(ids))
		ids = ids[:maxWindows]
	}
	for _, id := range ids {
		cut := deep && bytes.Contains(doc.Jsons[id], deepMark)
		if cut {
			r.problem(0, "window %q: %s", clip(id), deepProblem)
		}
		ws, err := r.fromSaved(id, doc.Jsons[id])
		if err != nil {
			r.res.Damaged = true
			if !cut {
				r.problem(0, "%v", err)
			}
			continue
		}
		ws.deep = cut
		env.Windows = append(env.Windows, r.finish(ws))
	}
	sortWindows(env.Windows)
	r.res.Envs = []*Env{env}
	return r.res
}

// jsonOffset is where encoding/json found a syntax error, or 0.
func jsonOffset(err error) int64 {
	if se, ok := err.(*json.SyntaxError); ok {
		return se.Offset
	}
	return 0
}
