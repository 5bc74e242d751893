package commands

import (
	"io"

	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
)

// textWriter is recorder/export/text's Writer, with the pod-group what-if's
// wording (whatif_pod_group_text.go) still beside the command.
type textWriter struct{ *text.Writer }

func newTextWriter(w io.Writer) *textWriter { return &textWriter{text.New(w)} }

// writeDocument is export.Write, as the pod-group what-if and suggest call it.
func writeDocument(w io.Writer, format string, v any) error { return export.Write(w, format, v) }
