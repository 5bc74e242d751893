package commands

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/engine/anonymize"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
)

// AnonymizeOptions holds the flags of anonymize.
type AnonymizeOptions struct {
	Fixture string
	Output  string
	streams genericiooptions.IOStreams
	stdin   io.Reader
}

// NewCmdAnonymize writes a fixture with stand-ins for what names the cluster.
func NewCmdAnonymize(streams genericiooptions.IOStreams) *cobra.Command {
	o := &AnonymizeOptions{streams: streams, stdin: streams.In}
	cmd := &cobra.Command{
		Use:   "anonymize -f FIXTURE [-o FILE]",
		Short: "Write a fixture with stand-ins for names, namespaces, label values and images, deciding as it did",
		Long: "anonymize rewrites a fixture (a snapshot) so that it can go into a public bug report: names, namespaces,\n" +
			"custom label keys, label values, taints, images and volume identifiers become stand-ins (node-001, ns-002, …),\n" +
			"each mapped the same wherever it appears, in the names' order; resources, priorities and Kubernetes' own label\n" +
			"keys are kept, and annotations dropped, so the scheduler makes the same decisions. The same input gives the\n" +
			"same output. snapshot --anonymize does it as it reads the cluster. A recording is refused: its messages are\n" +
			"free text no rewrite can be shown to clear of every name; anonymize its fixture and record that.\n\n" +
			"  kubectl schedscope anonymize -f cluster.yaml -o public.yaml && kubectl schedscope explain -f public.yaml",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cmd.SilenceUsage = true
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run()
		},
	}
	cmd.Flags().StringVarP(&o.Fixture, "filename", "f", "", "the fixture: a file, - for standard input, or an embedded fixture's name")
	cmd.Flags().StringVarP(&o.Output, "output", "o", "", "write to this file instead of standard output")
	cmd.RegisterFlagCompletionFunc("filename", completeFixtures)
	return cmd
}

// Validate refuses a missing fixture and an output that is the fixture.
func (o *AnonymizeOptions) Validate() error {
	if o.Fixture == "" {
		return errorf("anonymize needs -f FIXTURE (a file, - for standard input, or an embedded fixture's name)")
	}
	if o.Output == "" || o.Fixture == "-" {
		return nil
	}
	return recorder.CheckOutput(o.Output, o.Fixture)
}

// read returns the fixture's bytes and the name errors give it.
func (o *AnonymizeOptions) read() (string, []byte, error) {
	if o.Fixture == "-" {
		data, err := input.Read("(stdin)", o.stdin, input.FixtureLimit, "fixture")
		return "(stdin)", data, err
	}
	if _, err := os.Stat(o.Fixture); err != nil {
		if data, e := fixtures.Read(o.Fixture); e == nil {
			return embeddedPrefix + o.Fixture, data, nil
		}
	}
	data, err := input.ReadFile(o.Fixture, input.FixtureLimit, "fixture")
	return o.Fixture, data, err
}

// Run writes the anonymized fixture: to standard output, or to a file (mode
// 0600) that replaces --output only once it is all written.
func (o *AnonymizeOptions) Run() error {
	name, data, err := o.read()
	if err != nil {
		return err
	}
	if err := refuseRecording(name, data); err != nil {
		return err
	}
	out, _, err := anonymize.Manifest(name, data)
	if err != nil {
		return err
	}
	if o.Output == "" {
		_, err = o.streams.Out.Write(out)
		return err
	}
	f, err := recorder.CreateAtomic(o.Output, o.Fixture)
	if err != nil {
		return err
	}
	defer f.Abort()
	if _, err := f.Write(out); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	if err := f.Commit(); err != nil {
		return fmt.Errorf("%s: %w", o.Output, err)
	}
	return nil
}

// refuseRecording refuses a recording, saying why and what to do instead.
// A recording's objects could be mapped as a fixture's are, but its
// messages are free text: each plugin's reasons (an out-of-tree plugin's
// own words), preemption's and the volume binder's messages, upstream
// code's error lines name pods, nodes, claims and volumes in whatever form
// their authors chose. A stand-in missed in one of them leaks the name it
// stood for, and no rewrite of text can show that none was missed. Made
// again from the anonymized fixture, the recording holds only stand-ins,
// with the same decisions (anonymize's test checks them cycle by cycle).
func refuseRecording(name string, data []byte) error {
	r, err := recorder.NewReader(bytes.NewReader(data))
	if err != nil || r.Header().Format != recorder.FormatName {
		return nil // not a recording: read as a fixture
	}
	src := r.Header().Source
	from := "anonymize the fixture it was made from and record that instead: kubectl schedscope anonymize -f " +
		shellQuote(strings.TrimPrefix(src.Name, embeddedPrefix)) + " -o public.yaml && kubectl schedscope record -f public.yaml -o public.rec"
	if src.Kind != "fixture" || src.Name == "" {
		// A live cluster's: its snapshot, anonymized, is what can be shared.
		from = "take an anonymized snapshot of the cluster and record that instead: kubectl schedscope snapshot --anonymize -o public.yaml && kubectl schedscope record -f public.yaml -o public.rec"
	}
	return errorf("%s is a recording: its messages are free text (plugins' reasons, upstream's errors) that no rewrite can be shown to clear of every name; %s", name, from)
}
