package commands

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/narrate"
)

// DiffOptions holds the flags of diff.
type DiffOptions struct {
	simOptions
	WithConfig string
	Output     string
	// Cycles names two cycles of one recording to compare.
	Cycles []int
	// Pod keeps one pod of the comparison.
	Pod   string
	files []string

	streams genericiooptions.IOStreams
}

// exitError ends a command with a given exit status; a nil err prints nothing.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return ""
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// NewCmdDiff compares, pod by pod, two recordings or one fixture under two
// scheduler configurations.
func NewCmdDiff(streams genericiooptions.IOStreams) *cobra.Command {
	o := &DiffOptions{streams: streams, simOptions: simOptions{stdin: streams.In}}
	cmd := &cobra.Command{
		Use:   "diff (A.rec B.rec | -f FIXTURE [--config A.yaml] --with-config B.yaml | RUN.rec --cycles N,M) [--pod NAME] [-o text|json|yaml]",
		Short: "Compare where pods go in two recordings, or under two scheduler configurations",
		Long: "diff compares, pod by pod, the outcome of each pod's last cycle in A and in B: its node, result\n" +
			"and message; for every pod that changed it prints the cycle diff (feasible nodes, score deltas,\n" +
			"why the winner changed). With -f it schedules the fixture twice, under --config (default: kube-\n" +
			"scheduler's default profile) and under --with-config. Exit status: 0 when nothing differs, 1 when\n" +
			"something does, 2 on error, so it can gate a scheduler configuration change in CI.",
		Example: `  kubectl schedscope diff before.rec after.rec
  kubectl schedscope diff run.rec --cycles 3,9            # two cycles (e.g. two attempts of one pod)
  kubectl schedscope diff -f fixtures/large-cluster.yaml --with-config most-allocated.yaml
  kubectl schedscope diff -f cluster.yaml --config current.yaml --with-config proposed.yaml -o json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.files = args
			if err := o.Validate(); err != nil {
				return &exitError{code: 2, err: err}
			}
			return o.Run(cmd.Context())
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.WithConfig, "with-config", "", "the second KubeSchedulerConfiguration (with -f)")
	cmd.Flags().IntSliceVar(&o.Cycles, "cycles", nil, "N,M: compare two cycles of one recording")
	cmd.Flags().StringVar(&o.Pod, "pod", "", "compare only this pod (name or namespace/name)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json or yaml")
	return cmd
}

// Validate checks that exactly one of the two forms was given.
func (o *DiffOptions) Validate() error {
	switch {
	case len(o.Cycles) > 0 && (len(o.files) != 1 || len(o.Cycles) != 2):
		return errorf("--cycles takes two cycle numbers of one recording: diff RUN.rec --cycles 3,9")
	case len(o.Cycles) > 0:
		return validOutput(o.Output)
	case len(o.files) == 2 && (o.Fixture != "" || o.WithConfig != "" || o.Config != ""):
		return errorf("give two recordings, or -f with --with-config, not both")
	case len(o.files) == 2:
	case len(o.files) == 0 && o.WithConfig == "":
		return errorf("give two recordings (diff A.rec B.rec), or a fixture and a second configuration (diff -f FIXTURE --with-config B.yaml)")
	case len(o.files) == 0:
	default:
		return errorf("diff takes two recordings, got %d argument(s)", len(o.files))
	}
	return validOutput(o.Output)
}

// diffSide is one pod's outcome on one side.
type diffSide struct {
	Node    string `json:"node"`
	Outcome string `json:"outcome"`
	Message string `json:"message"`
	Seq     int    `json:"seq"`
}

// diffPod is one pod in both runs.
type diffPod struct {
	Pod     string              `json:"pod"`
	A       *diffSide           `json:"a"`
	B       *diffSide           `json:"b"`
	Changed bool                `json:"changed"`
	Diff    *recorder.CycleDiff `json:"diff,omitempty"`
}

type diffDocument struct {
	A        string    `json:"a"`
	B        string    `json:"b"`
	Changed  int       `json:"changed"`
	Note     string    `json:"note,omitempty"`
	Pods     []diffPod `json:"pods"`
	Problems []string  `json:"problems,omitempty"`
}

// lastCycles keeps each pod's last cycle, and the order pods first appeared.
type lastCycles struct {
	order []string
	last  map[string]*recorder.Cycle
}

func newLastCycles() *lastCycles { return &lastCycles{last: map[string]*recorder.Cycle{}} }

func (l *lastCycles) add(c *recorder.Cycle) {
	k := c.Pod.Key()
	prev, ok := l.last[k]
	if !ok {
		l.order = append(l.order, k)
	}
	if !ok || c.Seq >= prev.Seq {
		l.last[k] = c
	}
}

// Run compares and prints; the exit status says whether anything differs.
func (o *DiffOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	doc, err := o.compare(ctx)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	switch o.Output {
	case "json", "yaml":
		err = writeDocument(o.streams.Out, o.Output, doc)
	default:
		err = o.printText(doc)
	}
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if doc.Changed > 0 {
		return &exitError{code: 1}
	}
	return nil
}

func (o *DiffOptions) compare(ctx context.Context) (*diffDocument, error) {
	var a, b *lastCycles
	doc := &diffDocument{}
	if len(o.Cycles) == 2 {
		return o.compareCycles()
	}
	if len(o.files) == 2 {
		doc.A, doc.B = o.files[0], o.files[1]
		for i, name := range o.files {
			l, problems, err := readLastCycles(name)
			if err != nil {
				return nil, err
			}
			doc.Problems = append(doc.Problems, problems...)
			if i == 0 {
				a = l
			} else {
				b = l
			}
		}
	} else {
		if _, err := engine.LoadConfigFile(o.WithConfig); err != nil {
			return nil, errorf("--with-config: %v", err)
		}
		if err := o.checkInputs(); err != nil {
			return nil, err
		}
		doc.A, doc.B = configName(o.Config), o.WithConfig
		// Both sides filter nodes one at a time, as whatif re-runs do: a
		// sampled search then visits the same nodes in both, and a
		// configuration compared with itself is the same.
		o.serialFilter = true
		doc.Note = "both runs filter nodes one at a time (parallelism 1), so that where a search stops early (percentageOfNodesToScore) both sample the same nodes"
		a = newLastCycles()
		if _, err := o.simulate(ctx, a.add); err != nil {
			return nil, err
		}
		second := o.simOptions
		second.Config = o.WithConfig
		b = newLastCycles()
		if _, err := second.simulate(ctx, b.add); err != nil {
			return nil, err
		}
	}
	pairs := pairPods(a, b)
	doc.Pods = []diffPod{}
	if o.Pod != "" {
		kept := slices.DeleteFunc(pairs, func(p podPair) bool {
			return !p.named(o.Pod)
		})
		if len(kept) == 0 {
			return nil, errorf("pod %q has no cycle in either side", o.Pod)
		}
		pairs = kept
	}
	for _, pr := range pairs {
		ca, cb := pr.a, pr.b
		p := diffPod{Pod: pr.name()}
		if ca != nil {
			p.A = side(ca)
		}
		if cb != nil {
			p.B = side(cb)
		}
		switch {
		case ca == nil || cb == nil:
			p.Changed = true
		default:
			p.Changed = p.A.Node != p.B.Node || p.A.Outcome != p.B.Outcome || p.A.Message != p.B.Message
			if p.Changed {
				p.Diff = recorder.DiffCycles(ca, cb)
			}
		}
		if p.Changed {
			doc.Changed++
		}
		doc.Pods = append(doc.Pods, p)
	}
	return doc, nil
}

// podPair is one pod's last cycle in A and in B (either may be nil).
type podPair struct{ a, b *recorder.Cycle }

func (p podPair) name() string {
	switch {
	case p.a == nil:
		return p.b.Pod.Key()
	case p.b == nil || p.a.Pod.Key() == p.b.Pod.Key():
		return p.a.Pod.Key()
	}
	return p.a.Pod.Key() + " / " + p.b.Pod.Key()
}

func (p podPair) named(pod string) bool {
	for _, c := range []*recorder.Cycle{p.a, p.b} {
		if c != nil && (c.Pod.Key() == pod || c.Pod.Name == pod) {
			return true
		}
	}
	return false
}

// pairPods pairs each pod of A with its pod in B. A pod is itself in both,
// but the replicas a controller names (web-565c44d98d-x4vdk) are named
// anew in each run: the replicas of one controller and template are
// paired by their outcomes, in order, so that replicas that went to the
// same nodes are the same, and a replica that went elsewhere is paired
// with the one that took its place.
func pairPods(a, b *lastCycles) []podPair {
	type group struct{ a, b []*recorder.Cycle }
	groups := map[string]*group{}
	var order []string
	add := func(l *lastCycles, inA bool) {
		for _, k := range l.order {
			c := l.last[k]
			g := replicaGroup(c)
			if groups[g] == nil {
				groups[g] = &group{}
				order = append(order, g)
			}
			if inA {
				groups[g].a = append(groups[g].a, c)
			} else {
				groups[g].b = append(groups[g].b, c)
			}
		}
	}
	add(a, true)
	add(b, false)
	byOutcome := func(x, y *recorder.Cycle) int {
		return cmp.Or(cmp.Compare(x.Outcome.Node, y.Outcome.Node), cmp.Compare(x.Outcome.Result, y.Outcome.Result),
			cmp.Compare(x.Outcome.Message, y.Outcome.Message), cmp.Compare(x.Pod.Key(), y.Pod.Key()))
	}
	var pairs []podPair
	for _, k := range order {
		g := groups[k]
		if len(g.a) > 1 || len(g.b) > 1 {
			slices.SortStableFunc(g.a, byOutcome)
			slices.SortStableFunc(g.b, byOutcome)
		}
		for i := range max(len(g.a), len(g.b)) {
			var p podPair
			if i < len(g.a) {
				p.a = g.a[i]
			}
			if i < len(g.b) {
				p.b = g.b[i]
			}
			pairs = append(pairs, p)
		}
	}
	return pairs
}

// replicaGroup is the pod's key, or, for a pod its controller named with a
// random suffix, its controller's and its name's stem.
func replicaGroup(c *recorder.Cycle) string {
	name := c.Pod.Name
	if c.Pod.Owner == nil || len(name) < 7 || name[len(name)-6] != '-' {
		return c.Pod.Key()
	}
	for _, r := range name[len(name)-5:] {
		if !strings.ContainsRune(generatedSuffix, r) {
			return c.Pod.Key()
		}
	}
	return c.Pod.Namespace + "/" + name[:len(name)-5] + "* of " + c.Pod.Owner.String()
}

// generatedSuffix holds the letters the API server draws a generateName's
// suffix from (k8s.io/apimachinery/pkg/util/rand).
const generatedSuffix = "bcdfghjklmnpqrstvwxz2456789"

func configName(path string) string {
	if path == "" {
		return "the default configuration"
	}
	return path
}

func side(c *recorder.Cycle) *diffSide {
	return &diffSide{Node: c.Outcome.Node, Outcome: c.Outcome.Result, Message: c.Outcome.Message, Seq: c.Seq}
}

// readLastCycles streams a recording, keeping each pod's last cycle; damaged
// records are reported as problems, not fatal.
func readLastCycles(name string) (*lastCycles, []string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r, err := recorder.NewReader(f)
	if err != nil {
		return nil, nil, errorf("%s: %v", name, err)
	}
	l := newLastCycles()
	var problems []string
	for rec, err := range r.All() {
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			problems = append(problems, name+": "+err.Error())
			continue
		}
		if rec.Cycle != nil {
			l.add(rec.Cycle)
		}
	}
	if len(l.order) == 0 {
		return nil, problems, errorf("%s: holds no cycles", name)
	}
	return l, problems, nil
}

func (o *DiffOptions) printText(doc *diffDocument) error {
	t := newTextWriter(o.streams.Out)
	t.Printf("diff: A = %s, B = %s\n", doc.A, doc.B)
	if doc.Note != "" {
		t.Printf("note: %s\n", doc.Note)
	}
	for _, p := range doc.Problems {
		t.Printf("problem: %s\n", p)
	}
	t.Printf("%d of %d pod(s) changed\n", doc.Changed, len(doc.Pods))
	for _, p := range doc.Pods {
		if !p.Changed {
			continue
		}
		t.Printf("\n%s: %s  →  %s\n", p.Pod, sideLine(p.A), sideLine(p.B))
		if p.Diff != nil {
			for _, l := range narrate.Diff(p.Diff, 10) {
				t.Printf("  %s\n", l)
			}
			if p.Diff.Sampling != nil && len(o.files) == 2 {
				t.Printf("  (a sampled search: kube-scheduler's parallel filter picks the sample anew each run, so part of this may be that race, not the change)\n")
			}
		}
	}
	same := len(doc.Pods) - doc.Changed
	if same > 0 {
		t.Printf("\n%d pod(s) went the same way in both\n", same)
	}
	return t.Err()
}

func sideLine(s *diffSide) string {
	switch {
	case s == nil:
		return "(no cycle)"
	case s.Outcome == recorder.ResultBound:
		return s.Node
	}
	return s.Outcome
}

// compareCycles compares two cycles of one recording: they need not be of
// one pod, though that is the usual question (why did the retry differ?).
func (o *DiffOptions) compareCycles() (*diffDocument, error) {
	name := o.files[0]
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r, err := recorder.NewReader(f)
	if err != nil {
		return nil, errorf("%s: %v", name, err)
	}
	want := map[int]*recorder.Cycle{o.Cycles[0]: nil, o.Cycles[1]: nil}
	doc := &diffDocument{A: fmt.Sprintf("%s cycle %d", name, o.Cycles[0]), B: fmt.Sprintf("%s cycle %d", name, o.Cycles[1])}
	for rec, err := range r.All() {
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			doc.Problems = append(doc.Problems, name+": "+err.Error())
			continue
		}
		if c := rec.Cycle; c != nil {
			if got, ok := want[c.Seq]; ok && got == nil {
				want[c.Seq] = c
			}
		}
	}
	a, b := want[o.Cycles[0]], want[o.Cycles[1]]
	for _, n := range o.Cycles {
		if want[n] == nil {
			return nil, errorf("%s: has no cycle %d", name, n)
		}
	}
	p := diffPod{Pod: b.Pod.Key(), A: side(a), B: side(b), Diff: recorder.DiffCycles(a, b)}
	if a.Pod.Key() != b.Pod.Key() {
		p.Pod = a.Pod.Key() + " / " + b.Pod.Key()
	}
	p.Changed = !p.Diff.Same
	if p.Changed {
		doc.Changed = 1
	}
	doc.Pods = []diffPod{p}
	return doc, nil
}
