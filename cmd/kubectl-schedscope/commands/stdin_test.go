package commands

import (
	"bytes"
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

// TestFixtureFromStdin reads -f - from standard input, as kubectl does, so a
// snapshot can be piped into explain.
func TestFixtureFromStdin(t *testing.T) {
	fixture := "apiVersion: v1\nkind: Node\nmetadata: {name: only}\nstatus: {allocatable: {cpu: \"2\", memory: 4Gi, pods: \"10\"}}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: piped}\nspec: {containers: [{name: c, image: i}]}\n---\n" +
		"apiVersion: v1\nkind: Pod\nmetadata: {name: Bad_Name}\nspec: {containers: [{name: c, image: i}]}\n"
	tests := []struct {
		name, in, want string
		code           int
	}{
		{"bad object", fixture, `error: (stdin):11: Pod "Bad_Name" is invalid: metadata.name`, 1},
		{"good", fixture[:strings.LastIndex(fixture, "---")], "result: bound to only", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := Execute(genericiooptions.IOStreams{In: strings.NewReader(tt.in), Out: &out, ErrOut: &errOut}, []string{"explain", "-f", "-"})
			if code != tt.code || !strings.Contains(out.String()+errOut.String(), tt.want) {
				t.Errorf("exit %d, want %d; output lacks %q:\n%s%s", code, tt.code, tt.want, out.String(), errOut.String())
			}
		})
	}
}
