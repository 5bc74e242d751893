package scenario_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/schedscope/schedscope/engine"
	"github.com/schedscope/schedscope/engine/internal/zonebudget"
	"github.com/schedscope/schedscope/engine/scenario"
)

// useZoneBudget adds the example plugin to the process, once.
var useZoneBudget = sync.OnceValue(func() error {
	return engine.Use(engine.WithPlugin(zonebudget.Name, zonebudget.New), engine.WithPluginArgs(zonebudget.AddToScheme))
})

// A scheduler with an out-of-tree plugin: engine.Use adds it to the
// process (once, as a main does), and its configuration enables it. The
// plugin is recorded as the in-tree ones are: its Filter column, its score
// row, its Permit.
func ExampleScenario_Run_outOfTreePlugin() {
	if err := useZoneBudget(); err != nil {
		fmt.Println(err)
		return
	}
	dir := filepath.Join("..", "internal", "zonebudget", "testdata")
	sc, err := scenario.LoadFile(filepath.Join(dir, "fixture.yaml"))
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := sc.Run(context.Background(), scenario.Options{Config: cfg})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, pod := range []string{"web-1", "web-2", "web-3", "web-4"} {
		fmt.Printf("%s: %q\n", pod, res.Node(pod))
	}
	first := res.Cycles[0]
	for _, r := range first.Filter.Rejected {
		if first.Filter.Plugins[r.Plugin] == zonebudget.Name {
			fmt.Printf("%s rejected %s: %s\n", zonebudget.Name, first.NodeName(r.Node), r.Reasons[0])
		}
	}
	for _, p := range first.Permit {
		fmt.Printf("%s's Permit on %s: %s\n", p.Plugin, first.Pod.Name, p.Code)
	}
	// Output:
	// web-1: "a2"
	// web-2: "c1"
	// web-3: "a1"
	// web-4: ""
	// ZoneBudget rejected b1: zone zone-b is over budget
	// ZoneBudget's Permit on web-1: Wait
}
