package commands

import (
	"bytes"
	"os"
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

// A fixture piped or redirected in without -f - is refused in one line
// naming both ways on; it used to be ignored for the embedded default. A
// standard input that is no pipe and no file (/dev/null, a terminal) is
// not read.
func TestPipedFixtureWithoutDashF(t *testing.T) {
	file := writeTemp(t, "piped.yaml", storyFixture)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		_, _ = w.WriteString(storyFixture)
		w.Close()
	}()
	redirected, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer redirected.Close()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	for _, tt := range []struct {
		name string
		in   *os.File
		code int
		want string
	}{
		{"pipe", r, 1, "error: a fixture is piped in, but -f is not given: give -f - to read it (the embedded default fixture is -f default.yaml)"},
		{"redirected file", redirected, 1, "give -f - to read it"},
		{"/dev/null", null, 0, "fixture (embedded) default.yaml"},
	} {
		var out, errOut bytes.Buffer
		code := Execute(genericiooptions.IOStreams{In: tt.in, Out: &out, ErrOut: &errOut}, []string{"explain"})
		if code != tt.code || !strings.Contains(out.String()+errOut.String(), tt.want) {
			t.Errorf("%s: exit %d, want %d with %q:\n%s%s", tt.name, code, tt.code, tt.want, out.String(), errOut.String())
		}
		if tt.code != 0 && strings.Count(errOut.String(), "\n") != 1 {
			t.Errorf("%s: the error is not one line: %q", tt.name, errOut.String())
		}
	}
	r.Close()
}
