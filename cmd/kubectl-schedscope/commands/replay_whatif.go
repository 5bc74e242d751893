package commands

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/schedscope/schedscope/engine/featuregates"
	"github.com/schedscope/schedscope/engine/fixture"
	"github.com/schedscope/schedscope/fixtures"
	"github.com/schedscope/schedscope/recorder"
	"github.com/schedscope/schedscope/recorder/input"
)

// embeddedPrefix starts the name a fixture's run gives an embedded fixture.
const embeddedPrefix = "(embedded) "

// replayWhatIf returns the options that run again the fixture a recording
// at recPath was made from, so that its cycles can be questioned (what-if,
// suggest), or why they cannot be. The recording's header names the
// fixture, its configuration and how the pods arrived, with the digests of
// both files, and the feature gates it ran under: a file that is not found where it was, or has changed since,
// is not used, since a re-run of another cluster would answer for that
// cluster. A relative path is looked for from the working directory, then
// from the recording's.
func replayWhatIf(h recorder.Header, recPath string) (*simOptions, string) {
	src := h.Source
	rerun := "run kubectl schedscope sim -f FILE to question the cluster it was made from"
	switch {
	case h.Anonymized:
		return nil, "what-if re-runs the recording's fixture, and this recording is anonymized: the fixture it was made from is not shared with it"
	case src.Kind != "fixture":
		return nil, fmt.Sprintf("what-if re-runs a fixture; this recording is of cluster %s: run kubectl schedscope live to question it", input.Quote(src.Name))
	case src.Name == "(stdin)":
		return nil, "what-if re-runs the recording's fixture, which was read from standard input: " + rerun
	case src.Digest == "":
		return nil, "what-if re-runs the recording's fixture, and this recording (made before recordings named it by digest) cannot tell whether " + input.Quote(src.Name) + " is the same: " + rerun
	}
	o := &simOptions{Diagnostic: "unschedulable", ArrivalInterval: time.Duration(src.ArrivalInterval)}
	if src.Arrival == arrivalBurst {
		o.Arrival = arrivalBurst
	}
	var digest string
	if name, ok := strings.CutPrefix(src.Name, embeddedPrefix); ok {
		d, err := fixtures.Read(name)
		if err != nil {
			return nil, fmt.Sprintf("what-if re-runs the recording's fixture, %s, which this build does not embed: %s", input.Quote(name), rerun)
		}
		o.Fixture, digest = name, fixture.Digest(d)
	} else {
		path, d, err := findRecorded(src.Name, recPath, input.FixtureLimit, "fixture")
		if err != nil {
			return nil, fmt.Sprintf("what-if re-runs the recording's fixture: %v", err)
		}
		o.Fixture, digest = path, d
	}
	if digest != src.Digest {
		return nil, fmt.Sprintf("what-if re-runs the recording's fixture, and %s has changed since the recording was made: %s", input.Quote(o.Fixture), rerun)
	}
	if src.Config != "" {
		path, d, err := findRecorded(src.Config, recPath, input.ManifestLimit, "scheduler configuration")
		if err != nil {
			return nil, fmt.Sprintf("what-if re-runs the recording's scheduler configuration: %v", err)
		}
		if d != src.ConfigDigest {
			return nil, fmt.Sprintf("what-if re-runs the recording's scheduler configuration, and %s has changed since the recording was made: %s", input.Quote(path), rerun)
		}
		o.Config = path
	}
	// The scheduler that ran had the recording's feature gates: the
	// re-run sets them in the process (replay takes no --feature-gates).
	if len(h.FeatureGates) > 0 {
		if err := featuregates.Set(h.FeatureGates); err != nil {
			return nil, fmt.Sprintf("what-if re-runs the recording's fixture under its feature gates, which this build refuses: %v", err)
		}
		o.gates = featureGatesFlag{gates: h.FeatureGates, value: featuregates.Format(h.FeatureGates)}
	}
	return o, ""
}

// findRecorded finds the file a recording names, as named or, when that
// is a relative path not found from here, beside the recording, and
// returns its digest: of its bytes, or, for a directory given as a
// fixture, of its manifests (fixture.DirDigest: read, not decoded).
func findRecorded(name, recPath string, limit int64, what string) (path, digest string, err error) {
	paths := []string{name}
	if !filepath.IsAbs(name) {
		if beside := filepath.Join(filepath.Dir(recPath), name); beside != filepath.Clean(name) {
			paths = append(paths, beside)
		}
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			continue
		}
		if st.IsDir() {
			d, err := fixture.DirDigest(p)
			return p, d, err
		}
		data, err := input.ReadFile(p, limit, what)
		if err != nil {
			return p, "", err
		}
		return p, fixture.Digest(data), nil
	}
	return "", "", fmt.Errorf("%s is not found (looked in %s)", input.Quote(name), strings.Join(paths, " and "))
}
