package commands

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
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
		err = export.Write(o.streams.Out, o.Output, doc)
	default:
		t := text.New(o.streams.Out)
		t.RunDiff(doc, len(o.files) == 2)
		err = t.Err()
	}
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if doc.Changed > 0 {
		return &exitError{code: 1}
	}
	return nil
}

func (o *DiffOptions) compare(ctx context.Context) (*recorder.RunDiff, error) {
	var a, b *recorder.LastCycles
	doc := &recorder.RunDiff{}
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
		a = recorder.NewLastCycles()
		if _, err := o.simulate(ctx, a.Add); err != nil {
			return nil, err
		}
		second := o.simOptions
		second.Config = o.WithConfig
		b = recorder.NewLastCycles()
		if _, err := second.simulate(ctx, b.Add); err != nil {
			return nil, err
		}
	}
	pairs := recorder.PairPods(a, b)
	if o.Pod != "" {
		kept := slices.DeleteFunc(pairs, func(p recorder.PodPair) bool {
			return !p.Named(o.Pod)
		})
		if len(kept) == 0 {
			return nil, errorf("pod %q has no cycle in either side", o.Pod)
		}
		pairs = kept
	}
	doc.Pods, doc.Changed = recorder.DiffPods(pairs)
	return doc, nil
}

func configName(path string) string {
	if path == "" {
		return "the default configuration"
	}
	return path
}

// readLastCycles streams a recording, keeping each pod's last cycle; damaged
// records are reported as problems, not fatal.
func readLastCycles(name string) (*recorder.LastCycles, []string, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	r, err := recorder.NewReader(f)
	if err != nil {
		return nil, nil, errorf("%s: %v", name, err)
	}
	l := recorder.NewLastCycles()
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
			l.Add(rec.Cycle)
		}
	}
	if l.Len() == 0 {
		return nil, problems, errorf("%s: holds no cycles", name)
	}
	return l, problems, nil
}

// compareCycles compares two cycles of one recording: they need not be of
// one pod, though that is the usual question (why did the retry differ?).
func (o *DiffOptions) compareCycles() (*recorder.RunDiff, error) {
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
	doc := &recorder.RunDiff{A: fmt.Sprintf("%s cycle %d", name, o.Cycles[0]), B: fmt.Sprintf("%s cycle %d", name, o.Cycles[1])}
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
	p := recorder.PodDiff{Pod: b.Pod.Key(), A: recorder.SideOf(a), B: recorder.SideOf(b), Diff: recorder.DiffCycles(a, b)}
	if a.Pod.Key() != b.Pod.Key() {
		p.Pod = a.Pod.Key() + " / " + b.Pod.Key()
	}
	p.Changed = !p.Diff.Same
	if p.Changed {
		doc.Changed = 1
	}
	doc.Pods = []recorder.PodDiff{p}
	return doc, nil
}
