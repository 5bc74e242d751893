// Package schema holds the JSON Schema of schedscope's export format (the
// -o json of explain, replay --no-tui and live --no-tui) and a structural
// check of documents against it.
package schema

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Export is the JSON Schema of the export format, explain.schema.json.
//
//go:embed explain.schema.json
var Export []byte

// Check checks a decoded export document (from json.Unmarshal into any)
// against Export and returns one line per mismatch, each naming its path.
// It checks type, const, enum, required, properties, additionalProperties
// and items, with $ref into $defs: enough to keep the schema and the export
// in step, not a full JSON Schema validator.
func Check(doc any) ([]string, error) {
	var root map[string]any
	if err := json.Unmarshal(Export, &root); err != nil {
		return nil, fmt.Errorf("explain.schema.json: %w", err)
	}
	defs, _ := root["$defs"].(map[string]any)
	s := &jsonSchema{root: root, defs: defs}
	return s.validate(doc, root, "$"), nil
}

type jsonSchema struct {
	root map[string]any
	defs map[string]any
}

func (s *jsonSchema) validate(v any, sch map[string]any, path string) []string {
	if ref, ok := sch["$ref"].(string); ok {
		def, ok := s.defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: schema refers to unknown %s", path, ref)}
		}
		return s.validate(v, def, path)
	}
	var errs []string
	if types := schemaTypes(sch["type"]); len(types) > 0 && !slices.Contains(types, jsonType(v)) && !(jsonType(v) == "integer" && slices.Contains(types, "number")) {
		return []string{fmt.Sprintf("%s: %s, want %s", path, jsonType(v), strings.Join(types, " or "))}
	}
	if c, ok := sch["const"]; ok && fmt.Sprint(c) != fmt.Sprint(v) {
		errs = append(errs, fmt.Sprintf("%s: %v, want %v", path, v, c))
	}
	if enum, ok := sch["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return e == v }) {
		errs = append(errs, fmt.Sprintf("%s: %v is not one of %v", path, v, enum))
	}
	switch v := v.(type) {
	case map[string]any:
		props, _ := sch["properties"].(map[string]any)
		for _, r := range schemaTypes(sch["required"]) {
			if _, ok := v[r]; !ok {
				errs = append(errs, fmt.Sprintf("%s: lacks required key %q", path, r))
			}
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p, ok := props[k].(map[string]any); ok {
				errs = append(errs, s.validate(v[k], p, path+"."+k)...)
				continue
			}
			switch extra := sch["additionalProperties"].(type) {
			case bool:
				if !extra {
					errs = append(errs, fmt.Sprintf("%s: key %q is not in the schema", path, k))
				}
			case map[string]any:
				errs = append(errs, s.validate(v[k], extra, path+"."+k)...)
			}
		}
	case []any:
		if items, ok := sch["items"].(map[string]any); ok {
			for i, x := range v {
				errs = append(errs, s.validate(x, items, fmt.Sprintf("%s[%d]", path, i))...)
			}
		}
	}
	return errs
}

// schemaTypes reads a schema keyword that is a string or a list of strings.
func schemaTypes(v any) []string {
	switch v := v.(type) {
	case string:
		return []string{v}
	case []any:
		var out []string
		for _, x := range v {
			if s, ok := x.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

func jsonType(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case float64:
		if v == float64(int64(v)) {
			return "integer"
		}
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// CompactKeys lists the keys of a decoded document that belong to the
// recording's compact encoding (one- or two-letter keys, runs lists,
// nanosecond counts), which an export must not carry. path names v.
func CompactKeys(v any, path string) []string {
	var bad []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if len(k) <= 2 || k == "runs" || strings.HasSuffix(k, "Ns") {
				bad = append(bad, path+"."+k)
			}
			bad = append(bad, CompactKeys(x, path+"."+k)...)
		}
	case []any:
		for _, x := range v {
			bad = append(bad, CompactKeys(x, path+"[]")...)
		}
	}
	return bad
}
