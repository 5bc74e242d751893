package scale

import "testing"

func TestPeakRSS(t *testing.T) {
	report := "error: over.yaml:235177: the fixture holds more than 100000 objects\n" +
		"Command exited with non-zero status 1\n" +
		"\tCommand being timed: \"./ss explain -f over.yaml\"\n" +
		"\tUser time (seconds): 0.08\n" +
		"\tMaximum resident set size (kbytes): 177384\n"
	if mb, ok := PeakRSS(report); !ok || mb != 177384.0/1024 {
		t.Errorf("PeakRSS = %v, %v; want %v, true", mb, ok, 177384.0/1024)
	}
	if _, ok := PeakRSS("\tUser time (seconds): 0.08\n"); ok {
		t.Error("a report without the peak RSS read as holding one")
	}
}
