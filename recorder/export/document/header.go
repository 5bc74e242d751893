package document

import (
	"strconv"

	"github.com/schedscope/schedscope/recorder"
)

// GatesNote names the feature gates a run had other than their defaults,
// as --feature-gates takes them, after the Kubernetes version; empty when
// all were default.
func GatesNote(h recorder.Header) string {
	if len(h.FeatureGates) == 0 {
		return ""
	}
	return " --feature-gates=" + recorder.FormatFeatureGates(h.FeatureGates)
}

// CycleNumber is a member's cycle number, or "-" for a member that had
// no cycle of its own.
func CycleNumber(seq int) string {
	if seq == 0 {
		return "-"
	}
	return strconv.Itoa(seq)
}
