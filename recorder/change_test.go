package recorder

import (
	"reflect"
	"testing"
)

func TestParseSetWeight(t *testing.T) {
	tests := []struct {
		in      string
		want    SetWeight
		wantErr bool
	}{
		{in: "NodeResourcesFit=5", want: SetWeight{Plugin: "NodeResourcesFit", Weight: 5}},
		{in: " ImageLocality = 0 ", want: SetWeight{Plugin: "ImageLocality"}},
		{in: "ImageLocality", wantErr: true},
		{in: "=5", wantErr: true},
		{in: "ImageLocality=five", wantErr: true},
		{in: "ImageLocality=99999999999", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseSetWeight(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("ParseSetWeight(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestParseDisable(t *testing.T) {
	tests := []struct {
		in      string
		want    Disable
		wantErr bool
	}{
		{in: "NodeResourcesFit", want: Disable{Plugin: "NodeResourcesFit"}},
		{in: "NodeResourcesFit:score", want: Disable{Plugin: "NodeResourcesFit", Point: "score"}},
		{in: " TaintToleration : filter", want: Disable{Plugin: "TaintToleration", Point: "filter"}},
		{in: ":score", wantErr: true},
		{in: "  ", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseDisable(tc.in)
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("ParseDisable(%q) = %+v, %v; want %+v, error %v", tc.in, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// One rule stacks the debugger's what-if changes, for a pod and for a pod
// group alike: a second change of one thing replaces the first.
func TestWithChangeReplacesAndToggles(t *testing.T) {
	pct50, pct10 := SetPercentage{Percent: 50}, SetPercentage{Percent: 10}
	mc2, mc1 := SetMinCount{MinCount: 2}, SetMinCount{MinCount: 1}
	n1a, n1b, n2 := EditNode{Node: "n1", Edited: []byte("a")}, EditNode{Node: "n1", Edited: []byte("b")}, EditNode{Node: "n2", Edited: []byte("a")}
	p1, p2 := PatchPod{Pod: "a", Patch: "1"}, PatchPod{Pod: "a", Patch: "2"}
	off := Disable{Plugin: "P"}
	type changes = []Change
	tests := []struct {
		name string
		base changes
		ch   Change
		want changes
	}{
		{"percentage replaces", changes{pct50, mc2}, pct10, changes{mc2, pct10}},
		{"minCount replaces beside a node edit", changes{mc2, n1a}, mc1, changes{n1a, mc1}},
		{"a node edit replaces that node's", changes{n1a, n2}, n1b, changes{n2, n1b}},
		{"a pod patch replaces that pod's", changes{p1, off}, p2, changes{off, p2}},
		{"disable toggles", changes{off, pct50}, off, changes{pct50}},
		{"disable beside a node edit adds", changes{n1a}, off, changes{n1a, off}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := WithChange(tt.base, tt.ch)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}
