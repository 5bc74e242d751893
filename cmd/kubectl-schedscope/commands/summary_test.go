package commands

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The incident document carries the run's summary, as explain's text ends:
// the warnings (a recording's problems), the pods not bound with what each
// needs, and what the controllers left; a replay's also carries the marks.
func TestMarkdownAndHTMLCarryTheSummary(t *testing.T) {
	rec := record(t, "default")
	if _, err := openMarks(rec).Set(4, "default/huge", "too big for any node"); err != nil {
		t.Fatal(err)
	}
	torn := record(t, "default")
	data, err := os.ReadFile(torn)
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte("\n"))
	end := len(bytes.Join(lines[:lineOfKind(t, lines, "cycle", 3)+1], nil))
	writeFile(t, torn, string(data[:end-5]), 0o600) // tear the last cycle
	workloads := record(t, "workloads")
	huge := "Unschedulable: 0/4 nodes are available: 1 node"
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"explain markdown", []string{"explain", "-o", "markdown"}, []string{"\n## Summary\n", "**Pods not bound \\(1 of 5\\)**",
			"- `default/huge` — " + huge, "  - what would let it be scheduled: kubectl schedscope suggest --pod default/huge"}},
		{"explain html", []string{"explain", "-o", "html"}, []string{`<h2 id="summary">Summary</h2>`, "<h3>Pods not bound (1 of 5)</h3>",
			"<li><code>default/huge</code> — " + huge, "<li>what would let it be scheduled: kubectl schedscope suggest --pod default/huge</li>"}},
		{"explain markdown of workloads", []string{"explain", "-f", "workloads", "-o", "markdown"}, []string{"**At the end of the run**",
			"- Deployment default/web: 6 of 6 pod\\(s\\) placed"}},
		{"explain html of workloads", []string{"explain", "-f", "workloads", "-o", "html"}, []string{"<h3>At the end of the run</h3>",
			"<li>Deployment default/web: 6 of 6 pod(s) placed"}},
		{"replay markdown", []string{"replay", rec, "--no-tui", "-o", "markdown"}, []string{"**Marked cycles**", "too big for any node",
			// a recording holds the pods that had a cycle: not cache, which arrived bound.
			"**Pods not bound \\(1 of 4\\)**", "- `default/huge` — " + huge}},
		{"replay html", []string{"replay", rec, "--no-tui", "-o", "html"}, []string{"★ Marked: too big for any node",
			"<h3>Pods not bound (1 of 4)</h3>", "<li><code>default/huge</code> — " + huge}},
		// a recording keeps what the controllers left.
		{"replay markdown of workloads", []string{"replay", workloads, "--no-tui", "-o", "markdown"}, []string{"**At the end of the run**",
			"- Deployment default/web: 6 of 6 pod\\(s\\) placed"}},
		{"replay html of workloads", []string{"replay", workloads, "--no-tui", "-o", "html"}, []string{"<h3>At the end of the run</h3>",
			"<li>Deployment default/web: 6 of 6 pod(s) placed"}},
		{"replay text of workloads", []string{"replay", workloads, "--no-tui"}, []string{"at the end of the run:\n  Deployment default/web: 6 of 6 pod(s) placed"}},
		{"verify of workloads", []string{"verify", workloads}, []string{"0 observed bindings, the controllers' end state\n"}},
		{"replay markdown of a torn recording", []string{"replay", torn, "--no-tui", "-o", "markdown"}, []string{"**Warnings**", "torn record"}},
		{"replay html of a torn recording", []string{"replay", torn, "--no-tui", "-o", "html"}, []string{"<h3>Warnings</h3>", "torn record"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errOut, _ := run(t, tc.args...)
			for _, want := range tc.want {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q (stderr %q)", want, errOut)
				}
			}
		})
	}
}

// A pod's continuation lines are indented a few columns, not as far as its
// name (with its owner) is long.
func TestPodsNotBoundContinuationIndent(t *testing.T) {
	out, errOut, code := run(t, "explain")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "\n  default/huge  Unschedulable: ") || !strings.Contains(out, "\n      what would let it be scheduled: kubectl schedscope suggest --pod default/huge\n") {
		t.Errorf("pods not bound:\n%s", out[strings.Index(out, "pods not bound"):])
	}
}
