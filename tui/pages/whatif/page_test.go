package whatif

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWithChange(t *testing.T) {
	pod1 := Change{Kind: ChangePod, YAML: []byte("a")}
	pod2 := Change{Kind: ChangePod, YAML: []byte("b")}
	n1 := Change{Kind: ChangeNode, Target: "n1", YAML: []byte("x")}
	n2 := Change{Kind: ChangeNode, Target: "n2", YAML: []byte("y")}
	w := Change{Kind: ChangeWeight, Target: "P", Weight: 2}
	tests := []struct {
		name string
		base []Change
		ch   Change
		want []Change
	}{
		{"first", nil, w, []Change{w}},
		{"adds", []Change{w}, n1, []Change{w, n1}},
		{"a second pod edit replaces the first", []Change{pod1, w}, pod2, []Change{w, pod2}},
		{"another node adds", []Change{n1}, n2, []Change{n1, n2}},
		{"a second weight replaces the first", []Change{w, n1}, Change{Kind: ChangeWeight, Target: "P", Weight: 7}, []Change{n1, {Kind: ChangeWeight, Target: "P", Weight: 7}}},
		{"disabling twice enables again", []Change{w, {Kind: ChangeDisable, Target: "P", Point: "score"}}, Change{Kind: ChangeDisable, Target: "P", Point: "score"}, []Change{w}},
		{"disabling at another point adds", []Change{{Kind: ChangeDisable, Target: "P", Point: "score"}}, Change{Kind: ChangeDisable, Target: "P"}, []Change{{Kind: ChangeDisable, Target: "P", Point: "score"}, {Kind: ChangeDisable, Target: "P"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, withChange(tt.base, tt.ch)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseInput(t *testing.T) {
	tests := []struct {
		name    string
		kind    ChangeKind
		in      string
		want    Change
		wantErr bool
	}{
		{"weight", ChangeWeight, "ImageLocality=5", Change{Kind: ChangeWeight, Target: "ImageLocality", Weight: 5}, false},
		{"weight with spaces", ChangeWeight, " ImageLocality = 5 ", Change{Kind: ChangeWeight, Target: "ImageLocality", Weight: 5}, false},
		{"weight without a number", ChangeWeight, "ImageLocality=", Change{}, true},
		{"weight without a plugin", ChangeWeight, "=3", Change{}, true},
		{"disable everywhere", ChangeDisable, "TaintToleration", Change{Kind: ChangeDisable, Target: "TaintToleration"}, false},
		{"disable at a point", ChangeDisable, "NodeResourcesFit:score", Change{Kind: ChangeDisable, Target: "NodeResourcesFit", Point: "score"}, false},
		{"disable nothing", ChangeDisable, ":filter", Change{}, true},
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
