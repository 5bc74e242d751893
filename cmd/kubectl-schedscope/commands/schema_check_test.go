package commands

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"
)

// A small structural check of JSON against recorder/schema/explain.schema.json:
// type, const, enum, required, properties, additionalProperties and items,
// with $ref into $defs. It is enough to keep the schema and the export in
// step; it is not a full JSON Schema validator.

type jsonSchema struct {
	root map[string]any
	defs map[string]any
}

func loadSchema(t *testing.T) *jsonSchema {
	t.Helper()
	data, err := os.ReadFile("../../../recorder/schema/explain.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatalf("schema: %v", err)
	}
	defs, _ := root["$defs"].(map[string]any)
	return &jsonSchema{root: root, defs: defs}
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

// compactKeys lists the keys of v that belong to the recording's compact
// encoding: one- or two-letter keys, runs lists, nanosecond counts.
func compactKeys(v any, path string) []string {
	var bad []string
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if len(k) <= 2 || k == "runs" || strings.HasSuffix(k, "Ns") {
				bad = append(bad, path+"."+k)
			}
			bad = append(bad, compactKeys(x, path+"."+k)...)
		}
	case []any:
		for _, x := range v {
			bad = append(bad, compactKeys(x, path+"[]")...)
		}
	}
	return bad
}

func TestSchemaCheckFailsOnMismatch(t *testing.T) {
	s := loadSchema(t)
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"missing key", `{"format":"schedscope-export","schemaVersion":1,"header":{"schedscopeVersion":"x","kubernetesVersion":"x","created":"x","source":{"kind":"fixture","name":"x"},"profiles":null}}`, `$: lacks required key "cycles"`},
		{"unknown key", `{"format":"schedscope-export","schemaVersion":1,"cycles":[],"n":1}`, `$: key "n" is not in the schema`},
		{"wrong version", `{"format":"schedscope-export","schemaVersion":0,"cycles":[]}`, `$.schemaVersion: 0, want 1`},
		{"indices for names", `{"format":"schedscope-export","schemaVersion":1,"cycles":[{"filter":{"feasible":[0]}}]}`, `$.cycles[0].filter.feasible[0]: integer, want string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(tt.doc), &doc); err != nil {
				t.Fatal(err)
			}
			if errs := s.validate(doc, s.root, "$"); !slices.Contains(errs, tt.want) {
				t.Errorf("errors %q, want %q among them", errs, tt.want)
			}
		})
	}
	if bad := compactKeys(map[string]any{"cycles": []any{map[string]any{"n": 1, "filter": map[string]any{"runs": []any{}}}}}, "$"); len(bad) != 2 {
		t.Errorf("compactKeys found %v, want the two compact keys", bad)
	}
}
