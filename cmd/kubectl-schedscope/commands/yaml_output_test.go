package commands

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/recorder/export"

	"sigs.k8s.io/yaml"
)

// -o yaml keeps the JSON's key order (format and schemaVersion first, as
// the JSON has them) and reads back as the same data as -o json.
func TestYAMLOutputKeepsOrder(t *testing.T) {
	js, errOut, code := run(t, "explain", "--pod", "huge", "-o", "json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errOut)
	}
	ys, errOut, code := run(t, "explain", "--pod", "huge", "-o", "yaml")
	if code != 0 {
		t.Fatalf("yaml: exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(ys, "format: schedscope-export\nschemaVersion: 1\nheader:\n") {
		t.Errorf("YAML does not start as the JSON does:\n%s", ys[:min(len(ys), 200)])
	}
	// The document of one run, converted, reads back as itself.
	converted, err := export.YAML([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	back, err := yaml.YAMLToJSON(converted)
	if err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(back, &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("the YAML reads back as other data than the JSON")
	}
	for _, in := range []string{`{"b":1,"a":[1.5,"2",true,null,{"z":{},"y":[]}]}`, `[]`} {
		out, err := export.YAML([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		j, _ := yaml.YAMLToJSON(out)
		if string(j) != strings.ReplaceAll(in, " ", "") && !(in == `{"b":1,"a":[1.5,"2",true,null,{"z":{},"y":[]}]}` && string(j) == `{"a":[1.5,"2",true,null,{"y":[],"z":{}}],"b":1}`) {
			t.Errorf("%s → %s → %s", in, out, j)
		}
		if in[0] == '{' && !strings.HasPrefix(string(out), "b: 1\na:") {
			t.Errorf("%s: order lost:\n%s", in, out)
		}
	}
}
