package commands

import (
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/featuregates"
)

// TestSuggestPodGroup: suggest --pod-group lists the changes that let a
// pod group bind, each with where its confirming run put the members; a
// group that binds gets a note, an unknown group or a flag of a pod's
// search one line each.
func TestSuggestPodGroup(t *testing.T) {
	t.Cleanup(func() { _ = featuregates.Reset() })
	tests := []struct {
		name    string
		args    []string
		want    []string
		wantErr string
	}{
		{"failed gang", []string{"--pod-group", "pg/infer"}, []string{
			"suggest: pod group default/infer in ",
			"now: Unschedulable: minCount (3) cannot be satisfied: 2 scheduled, 0 remaining",
			"ran the fixture again 3 times",
			"  1. lower the gang's minCount to 2: infer-0 → s1, infer-1 → s2, infer-2 → unbound\n",
			"  2. lower infer-2's request to cpu 300m (what s1 had free): infer-0 → s1, infer-1 → s2, infer-2 → s1\n",
			"     try: kubectl schedscope whatif -f " + gangFixture + " --feature-gates GenericWorkload=true --pod-group default/infer --patch-pod 'default/infer-2={\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"300m\"}}}]}}'\n",
			"  3. add a node like s1 (s1-copy): ",
			"infer-2 → s1-copy",
		}, ""},
		{"bound gang", []string{"--pod-group", "default/train"}, []string{"now: Bound\n", "the group binds as it is\n"}, ""},
		{"unknown", []string{"--pod-group", "infr"}, nil, `no PodGroup "infr" in `},
		{"with --node", []string{"--pod-group", "infer", "--node", "s1"}, nil, "--node and --cycle ask about a pod: --pod-group takes neither"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errOut, code := run(t, append([]string{"suggest", "-f", gangFixture, gangGates}, tt.args...)...)
			if tt.wantErr != "" {
				if code == 0 || !strings.Contains(errOut, tt.wantErr) || strings.Count(strings.TrimSpace(errOut), "\n") > 0 {
					t.Fatalf("exit %d, stderr %q: want one line with %q", code, errOut, tt.wantErr)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}
