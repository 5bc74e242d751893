package commands

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/export/text"
	"github.com/schedscope/schedscope/recorder/narrate"
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
	out := text.New(o.streams.Out)
	out.Verify(o.File, s)
	if len(s.Problems) == 0 || out.Err() != nil {
		return out.Err()
	}
	return errorf("%s: %s found", o.File, narrate.Count(len(s.Problems), "problem"))
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
