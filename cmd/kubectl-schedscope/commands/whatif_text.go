package commands

import (
	"io"

	"github.com/schedscope/schedscope/recorder/export"
	"github.com/schedscope/schedscope/recorder/export/text"
)

// textWriter is recorder/export/text's Writer with what the commands still
// word themselves: the pod-group what-if (whatif_pod_group_text.go), which
// suggest --pod-group and capacity print through too. Every other output
// is worded by recorder/export/text.
type textWriter struct{ *text.Writer }

func newTextWriter(w io.Writer) *textWriter { return &textWriter{text.New(w)} }

// writeDocument is export.Write, as the pod-group what-if, suggest
// --pod-group and capacity call it.
func writeDocument(w io.Writer, format string, v any) error { return export.Write(w, format, v) }
