package whatif

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
)

func TestWithChange(t *testing.T) {
	pod1 := recorder.EditPod{Edited: []byte("a")}
	pod2 := recorder.EditPod{Edited: []byte("b")}
	n1 := recorder.EditNode{Node: "n1", Edited: []byte("x")}
	n2 := recorder.EditNode{Node: "n2", Edited: []byte("y")}
	w := recorder.SetWeight{Plugin: "P", Weight: 2}
	w7 := recorder.SetWeight{Plugin: "P", Weight: 7}
	atScore := recorder.Disable{Plugin: "P", Point: "score"}
	everywhere := recorder.Disable{Plugin: "P"}
	type changes = []recorder.Change
	tests := []struct {
		name string
		base changes
		ch   recorder.Change
		want changes
	}{
		{"first", nil, w, changes{w}},
		{"adds", changes{w}, n1, changes{w, n1}},
		{"a second pod edit replaces the first", changes{pod1, w}, pod2, changes{w, pod2}},
		{"another node adds", changes{n1}, n2, changes{n1, n2}},
		{"a second weight replaces the first", changes{w, n1}, w7, changes{n1, w7}},
		{"disabling twice enables again", changes{w, atScore}, atScore, changes{w}},
		{"disabling at another point adds", changes{atScore}, everywhere, changes{atScore, everywhere}},
		{"an edit beside a disabled plugin", changes{atScore, pod1}, pod2, changes{atScore, pod2}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, recorder.WithChange(tt.base, tt.ch)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseInput(t *testing.T) {
	tests := []struct {
		name    string
		kind    inputKind
		in      string
		want    recorder.Change
		wantErr bool
	}{
		{"weight", inputWeight, "ImageLocality=5", recorder.SetWeight{Plugin: "ImageLocality", Weight: 5}, false},
		{"weight with spaces", inputWeight, " ImageLocality = 5 ", recorder.SetWeight{Plugin: "ImageLocality", Weight: 5}, false},
		{"weight without a number", inputWeight, "ImageLocality=", nil, true},
		{"weight without a plugin", inputWeight, "=3", nil, true},
		{"disable everywhere", inputDisable, "TaintToleration", recorder.Disable{Plugin: "TaintToleration"}, false},
		{"disable at a point", inputDisable, "NodeResourcesFit:score", recorder.Disable{Plugin: "NodeResourcesFit", Point: "score"}, false},
		{"disable nothing", inputDisable, ":filter", nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseInput(tt.kind, tt.in)
			if (err != nil) != tt.wantErr {
				t.Fatalf("err = %v, want error %v", err, tt.wantErr)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}
