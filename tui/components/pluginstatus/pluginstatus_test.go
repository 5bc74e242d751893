package pluginstatus

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-cmp/cmp"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/tui/theme"
)

func TestTable(t *testing.T) {
	st := theme.New(true)
	got := Table(&st, []recorder.PluginStatus{
		{Plugin: "VolumeBinding", Code: recorder.CodeSuccess, Duration: 452 * time.Nanosecond},
		{Plugin: "GangScheduling", Code: recorder.CodeWait, Reasons: []string{"", "waiting for 2 more"}, Timeout: 30 * time.Second},
	}, 100)
	for i := range got {
		got[i] = strings.TrimRight(ansi.Strip(got[i]), " ")
	}
	want := []string{
		"  plugin         status                             took  reasons",
		"  VolumeBinding  ✓ Success                         452ns",
		"  GangScheduling W Wait                               0s  waiting for 2 more; wait up to 30s",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestFieldAndOutcome(t *testing.T) {
	st := theme.New(true)
	if got := ansi.Strip(Field(&st, "profile", "default-scheduler")); got != "  profile          default-scheduler" {
		t.Errorf("Field = %q", got)
	}
	o := recorder.Outcome{Result: recorder.ResultBound, Node: "node-a"}
	if got := ansi.Strip(Outcome(&st, o)); !strings.Contains(got, "node-a") {
		t.Errorf("Outcome = %q", got)
	}
}
