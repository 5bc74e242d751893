package scenario_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedscope/schedscope/engine/scenario"
)

// TestWebStillSpreads is README's "Schedscope as a Go library" example, as
// README shows it (TestREADMEShowsTheLibraryTest checks it is the same).
func TestWebStillSpreads(t *testing.T) {
	sc, err := scenario.Embedded("workloads") // or scenario.LoadFile("testdata/cluster.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := sc.Run(context.Background(), scenario.Options{ConfigPath: "testdata/new-config.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if zones := res.Spread("deploy/web", "topology.kubernetes.io/zone"); len(zones) != 3 || !res.Fits("job/report") {
		t.Errorf("web over zones %v; report fits: %v", zones, res.Fits("job/report"))
	}
}

// README's library example is TestWebStillSpreads, word for word, so the
// code README shows compiles and passes.
func TestREADMEShowsTheLibraryTest(t *testing.T) {
	src, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(string(src), "func TestWebStillSpreads")
	end := strings.Index(string(src), "\n}\n") + 3
	if start < 0 || end < start {
		t.Fatal("readme_test.go has no TestWebStillSpreads")
	}
	if fn := string(src[start:end]); !strings.Contains(string(readme), fn) {
		t.Errorf("README's library example is not readme_test.go's TestWebStillSpreads:\n%s", fn)
	}
}
