package schema

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestSchemaCheckFailsOnMismatch(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string
	}{
		{"missing key", `{"format":"schedscope-export","schemaVersion":1,"header":{"schedscopeVersion":"x","kubernetesVersion":"x","created":"x","source":{"kind":"fixture","name":"x"},"profiles":null}}`, `$: lacks required key "cycles"`},
		{"unknown key", `{"format":"schedscope-export","schemaVersion":1,"cycles":[],"n":1}`, `$: key "n" is not in the schema`},
		{"wrong version", `{"format":"schedscope-export","schemaVersion":0,"cycles":[]}`, `$.schemaVersion: 0, want 1`},
		{"unknown queue operation", `{"format":"schedscope-export","schemaVersion":1,"cycles":[],"pods":[{"pod":{"namespace":"d","name":"p"},"state":"Backoff","seqs":[1],"queue":[{"seq":1,"time":"2026-01-01T00:00:00Z","pod":{"namespace":"d","name":"p"},"operation":"Pop"}]}]}`, `$.pods[0].queue[0].operation: Pop is not one of [Add Update Delete Move Skip]`},
		{"backoff as nanoseconds", `{"format":"schedscope-export","schemaVersion":1,"cycles":[],"pods":[{"pod":{"namespace":"d","name":"p"},"state":"Backoff","seqs":[1],"queue":[{"seq":1,"time":"2026-01-01T00:00:00Z","pod":{"namespace":"d","name":"p"},"operation":"Move","backoff":1000000000}]}]}`, `$.pods[0].queue[0].backoff: integer, want string`},
		{"indices for names", `{"format":"schedscope-export","schemaVersion":1,"cycles":[{"filter":{"feasible":[0]}}]}`, `$.cycles[0].filter.feasible[0]: integer, want string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var doc any
			if err := json.Unmarshal([]byte(tt.doc), &doc); err != nil {
				t.Fatal(err)
			}
			errs, err := Check(doc)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Contains(errs, tt.want) {
				t.Errorf("errors %q, want %q among them", errs, tt.want)
			}
		})
	}
	if bad := CompactKeys(map[string]any{"cycles": []any{map[string]any{"n": 1, "filter": map[string]any{"runs": []any{}}}}}, "$"); len(bad) != 2 {
		t.Errorf("CompactKeys found %v, want the two compact keys", bad)
	}
}
