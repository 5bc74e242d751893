package commands

import (
	"fmt"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
)

// VerifyOptions holds the arguments of verify.
type VerifyOptions struct {
	File    string
	streams genericiooptions.IOStreams
}

// NewCmdVerify checks a recording headlessly.
func NewCmdVerify(streams genericiooptions.IOStreams) *cobra.Command {
	o := &VerifyOptions{streams: streams}
	cmd := &cobra.Command{
		Use:   "verify FILE",
		Short: "Check a recording: torn or corrupt records, missing node sets, duplicates",
		Long: "verify reads a whole recording and prints what it holds. It exits 0 when the recording is clean,\n" +
			"and 1 with one line per problem (and the byte offset of the record) when it is not.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.File = args[0]
			return o.Run()
		},
	}
	return cmd
}

// Run reads the recording, prints a summary and the problems, and fails if
// there are any.
func (o *VerifyOptions) Run() error {
	s, err := recorder.VerifyFile(o.File)
	if err != nil {
		return err
	}
	out := o.streams.Out
	h := s.Header
	if h.Unreadable {
		fmt.Fprintf(out, "%s: header unreadable\n", o.File)
	} else {
		fmt.Fprintf(out, "%s: schedscope %s · kube-scheduler %s · %s %s\n", o.File, h.SchedscopeVersion, h.KubernetesVersion, h.Source.Kind, h.Source.Name)
	}
	fmt.Fprintf(out, "%d records: %d cycles, %d node sets, %d observed bindings\n", s.Records, s.Cycles, s.NodeSets, s.Observed)
	if len(s.Problems) == 0 {
		fmt.Fprintln(out, "no problems")
		return nil
	}
	fmt.Fprintf(out, "%d problem(s):\n", len(s.Problems))
	for _, p := range s.Problems {
		fmt.Fprintf(out, "  %v\n", p)
	}
	return errorf("%s: %d problem(s) found", o.File, len(s.Problems))
}
