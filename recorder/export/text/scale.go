package text

import (
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
	"github.com/schedscope/schedscope/recorder/visible"
)

// Scale prints whatif --scale: the workload kind namespace/name of the
// fixture named fixture, where its pods went as written (before) and
// scaled (after), and why those left pending are, by message.
func (t *Writer) Scale(fixture, kind, namespace, name string, before, after *recorder.ScaledRun) {
	t.Printf("what-if: %s %s/%s asks for %d instead of %d, in %s (two whole runs of the fixture)\n", kind, namespace, name, after.Replicas, before.Replicas, fixture)
	for _, side := range []struct {
		label string
		run   *recorder.ScaledRun
	}{{"before", before}, {"after ", after}} {
		t.Printf("%s: %s\n", side.label, visible.String(narrate.Workload(side.run.Workload)))
		for _, g := range side.run.Pending {
			t.Printf("        %d pending: %s\n", len(g.Pods), visible.String(g.Message))
		}
	}
}
