package scale

import (
	"regexp"
	"strconv"
)

var maxRSS = regexp.MustCompile(`Maximum resident set size \(kbytes\): ([0-9]+)`)

// PeakRSS reads the peak resident memory in MB from the report
// `/usr/bin/time -v` writes after a command, and whether the report held it.
// The benchmarks that time the binary as users run it read it alike.
func PeakRSS(report string) (float64, bool) {
	m := maxRSS.FindStringSubmatch(report)
	if m == nil {
		return 0, false
	}
	kb, err := strconv.ParseFloat(m[1], 64)
	return kb / 1024, err == nil
}
