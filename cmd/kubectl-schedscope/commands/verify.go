package commands

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

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
		Short: "Check a recording: torn or corrupt records, missing node sets, duplicates, records out of order",
		Long: "verify reads a whole recording and prints what it holds. It exits 0 when the recording is clean,\n" +
			"and 1 with one line per problem (and the byte offset of the record) when it is not.",
		Args: oneRecording,
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
	// The header's strings come from the file: printed through the text
	// writer, they cannot act on the terminal.
	out := newTextWriter(o.streams.Out)
	h := s.Header
	if h.Unreadable {
		out.Printf("%s: header unreadable\n", o.File)
	} else {
		out.Printf("%s: schedscope %s · kube-scheduler %s · %s %s\n", o.File, h.SchedscopeVersion, h.KubernetesVersion, h.Source.Kind, h.Source.Name)
	}
	records := plural(s.Records, "record")
	if s.OutOfPlace > 0 {
		records += fmt.Sprintf(" (%d out of place)", s.OutOfPlace)
	}
	cluster := ""
	if s.Cluster {
		cluster = ", the controllers' end state"
	}
	out.Printf("%s: %s, %s, %s, %s%s\n", records,
		withSkipped(s.Cycles, "cycle", s.DuplicateCycles, 0), withSkipped(s.NodeSets, "node set", s.DuplicateNodeSets, 0),
		withSkipped(s.Queue, "queue event", s.DuplicateQueue, s.OutOfOrderQueue), plural(s.Observed, "observed binding"), cluster)
	if s.PodGroups > 0 {
		out.Printf("%s\n", plural(s.PodGroups, "pod-group cycle"))
	}
	if s.Ended {
		out.Printf("ended by its writer\n")
	} else {
		out.Printf("no end record: its writer stopped before closing it, or is still writing it\n")
	}
	kinds := slices.Sorted(maps.Keys(s.Unknown))
	for _, k := range kinds {
		out.Printf("skipped %s of unknown kind %s (written by a newer schedscope?)\n", plural(s.Unknown[k], "record"), strconv.Quote(k))
	}
	if len(s.Problems) == 0 {
		out.Printf("no problems\n")
		return out.Err()
	}
	out.Printf("%s:\n", plural(len(s.Problems), "problem"))
	for _, p := range s.Problems {
		out.Printf("  %s\n", p.Error())
	}
	if out.Err() != nil {
		return out.Err()
	}
	return errorf("%s: %s found", o.File, plural(len(s.Problems), "problem"))
}

// plural says how many of a thing there are: "1 node set", "2 node sets".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// withSkipped counts distinct things and, when there are any, the repeats
// skipped and the records out of order (skipped when copied, kept when moved).
func withSkipped(n int, thing string, dups, outOfOrder int) string {
	var skipped []string
	if dups > 0 {
		skipped = append(skipped, plural(dups, "duplicate"))
	}
	if outOfOrder > 0 {
		skipped = append(skipped, fmt.Sprintf("%d out of order", outOfOrder))
	}
	if len(skipped) == 0 {
		return plural(n, thing)
	}
	return fmt.Sprintf("%s (%s)", plural(n, thing), strings.Join(skipped, ", "))
}

// oneRecording is the Args check of the commands that read one recording:
// without it, cobra only says how many arguments it got.
func oneRecording(cmd *cobra.Command, args []string) error {
	usage := cmd.Root().DisplayName() + " " + cmd.Name() + " FILE"
	switch len(args) {
	case 0:
		return errorf("%s needs a recording file: %s", cmd.Name(), usage)
	case 1:
		return nil
	}
	return errorf("%s reads one recording file, not %d: %s", cmd.Name(), len(args), usage)
}
