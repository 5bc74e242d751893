package commands

import (
	"context"
	"encoding/json"
	"sort"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	"github.com/schedscope/schedscope/recorder"
)

// ExplainOptions holds the flags of explain.
type ExplainOptions struct {
	simOptions
	Pod     string
	Output  string
	streams genericiooptions.IOStreams
}

// NewCmdExplain prints every scheduling cycle of a fixture, headlessly.
func NewCmdExplain(streams genericiooptions.IOStreams) *cobra.Command {
	o := &ExplainOptions{streams: streams}
	cmd := &cobra.Command{
		Use:   "explain [-f FIXTURE] [--config FILE] [--pod NAME] [-o text|json|yaml]",
		Short: "Schedule a fixture and explain every scheduling cycle",
		Example: `  kubectl schedscope explain                      # the embedded default fixture
  kubectl schedscope explain -f cluster.yaml --pod web
  kubectl schedscope explain -f cluster.yaml -o json | jq .`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(cmd.Context())
		},
	}
	o.addFlags(cmd.Flags())
	cmd.Flags().StringVar(&o.Pod, "pod", "", "only show cycles of this pod (name or namespace/name)")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "text", "output format: text, json or yaml")
	return cmd
}

// Validate checks flag values.
func (o *ExplainOptions) Validate() error {
	switch o.Output {
	case "text", "json", "yaml":
		return nil
	}
	return errorf("--output must be text, json or yaml, not %q", o.Output)
}

// Run schedules the fixture and prints the cycles.
func (o *ExplainOptions) Run(ctx context.Context) error {
	if ctx == nil {
		ctx = context.Background()
	}
	var cycles []*recorder.Cycle
	header, fx, err := o.simulate(ctx, nil, func(c *recorder.Cycle) { cycles = append(cycles, c) })
	if err != nil {
		return err
	}
	sort.Slice(cycles, func(i, j int) bool { return cycles[i].Seq < cycles[j].Seq })
	if o.Pod != "" {
		var kept []*recorder.Cycle
		for _, c := range cycles {
			if c.Pod.Name == o.Pod || c.Pod.Key() == o.Pod {
				kept = append(kept, c)
			}
		}
		if len(kept) == 0 {
			return errorf("no cycle for pod %q in %s", o.Pod, fx.Name)
		}
		cycles = kept
	}
	switch o.Output {
	case "json", "yaml":
		doc := explainDocument{Header: header, Warnings: fx.Warnings, Cycles: make([]cycleDocument, len(cycles))}
		for i, c := range cycles {
			doc.Cycles[i] = cycleDocument{Cycle: c, Nodes: c.Nodes.Names}
		}
		data, err := json.MarshalIndent(doc, "", "  ")
		if err != nil {
			return err
		}
		if o.Output == "yaml" {
			if data, err = yaml.JSONToYAML(data); err != nil {
				return err
			}
		}
		_, err = o.streams.Out.Write(append(data, '\n'))
		return err
	}
	w := newTextWriter(o.streams.Out)
	w.header(header, fx.Name, fx.Warnings)
	for _, c := range cycles {
		w.cycle(c)
	}
	return w.err
}

type explainDocument struct {
	Header   recorder.Header `json:"header"`
	Warnings []string        `json:"warnings,omitempty"`
	Cycles   []cycleDocument `json:"cycles"`
}

// cycleDocument carries the node names with the cycle so the output stands alone.
type cycleDocument struct {
	*recorder.Cycle
	Nodes []string `json:"nodes"`
}
