package commands

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// inNamespace is the smallest fixture that lost its workload when the
// controllers' pods were stored in default: a Deployment in namespace shop.
const inNamespace = `apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "2", memory: 8Gi, pods: "110"}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: checkout, namespace: shop}
spec:
  replicas: %d
  selector: {matchLabels: {app: checkout}}
  template:
    metadata: {labels: {app: checkout}}
    spec:
      containers: [{name: c, image: nginx, resources: {requests: {cpu: 600m}%s}}]
`

func writeFixture(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAWorkloadInANamespaceIsScheduled(t *testing.T) {
	path := writeFixture(t, "ns.yaml", strings.ReplaceAll(strings.Replace(inNamespace, "%d", "2", 1), "%s", ""))
	out, errOut, code := run(t, "explain", "-f", path, "--exit-code")
	if code != 0 || !strings.Contains(out, "Deployment shop/checkout: 2 of 2 pod(s) placed (n1 ×2)") {
		t.Fatalf("exit %d, want both replicas placed on n1:\n%s%s", code, out, errOut)
	}
}

// TestALostWorkloadFailsLoudly: pods a LimitRange refuses are a workload
// the run lost: one warning naming it and the controller's error, the
// repeated error once, in the JSON warnings too, and --exit-code fails.
func TestALostWorkloadFailsLoudly(t *testing.T) {
	fixture := strings.Replace(strings.Replace(inNamespace, "%d", "3", 1), "%s", ", limits: {cpu: \"1\"}", 1) +
		"---\napiVersion: v1\nkind: LimitRange\nmetadata: {name: cap, namespace: shop}\nspec:\n  limits: [{type: Container, max: {cpu: 500m}}]\n"
	// The LimitRange must exist before the Deployment's pods are made.
	path := writeFixture(t, "lost.yaml", fixture)
	out, errOut, code := run(t, "explain", "-f", path, "--exit-code")
	if code == 0 {
		t.Fatalf("exit 0 for a run that made none of its pods:\n%s%s", out, errOut)
	}
	warning := regexp.MustCompile(`(?m)^warning: Deployment shop/checkout: 3 of 3 pod\(s\) not made: sync "shop/checkout-\w+" failed with pods "checkout-\w+-\w+" is forbidden: maximum cpu usage per Container is 500m, but limit is 1$`)
	if n := len(warning.FindAllString(out, -1)); n != 1 {
		t.Errorf("want one warning naming the Deployment and its cause, got %d:\n%s", n, out)
	}
	if n := strings.Count(errOut, "problem: "); n != 1 || !strings.Contains(errOut, "more like it)") {
		t.Errorf("want the controller's repeated error once, counted, got %d problem line(s):\n%s", n, errOut)
	}
	if !strings.Contains(errOut, "error: the run lost 1 object(s): Deployment shop/checkout") {
		t.Errorf("--exit-code's error does not name what was lost:\n%s", errOut)
	}
	js, _, _ := run(t, "explain", "-f", path, "-o", "json")
	var doc struct{ Warnings []string }
	if err := json.Unmarshal([]byte(js), &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range doc.Warnings {
		found = found || strings.HasPrefix(w, "Deployment shop/checkout: 3 of 3 pod(s) not made: ")
	}
	if !found {
		t.Errorf("JSON warnings lack the lost Deployment: %q", doc.Warnings)
	}
}

// TestPrintedSuggestCommandsWork runs each suggest command explain prints
// for a pod left pending, as printed: a controller's pod is named by its
// handle, which the next run resolves to the same pod.
func TestPrintedSuggestCommandsWork(t *testing.T) {
	path := writeFixture(t, "tight.yaml", strings.ReplaceAll(strings.Replace(inNamespace, "%d", "5", 1), "%s", ""))
	out, errOut, code := run(t, "explain", "-f", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	printed := regexp.MustCompile(`what would let it be scheduled: (kubectl schedscope suggest .*)`).FindAllStringSubmatch(out, -1)
	if len(printed) != 2 {
		t.Fatalf("want a suggest command for each of the 2 pending replicas, got %d:\n%s", len(printed), out)
	}
	for _, m := range printed {
		// shellQuote quotes a word in single quotes; these hold no space.
		words := strings.Fields(m[1])
		for i, w := range words {
			words[i] = strings.Trim(w, "'")
		}
		if !strings.Contains(m[1], "deploy/shop/checkout#") {
			t.Errorf("%s: want the pod named by its handle", m[1])
		}
		out, errOut, code := run(t, words[2:]...)
		if code != 0 || !strings.Contains(out, "make it schedulable") {
			t.Errorf("%s: exit %d\n%s%s", m[1], code, out, errOut)
		}
	}
	for _, handle := range []string{"deploy/shop/checkout", "deploy/shop/checkout#5"} {
		out, errOut, code := run(t, "whatif", "-f", path, "--pod", handle, "--set-weight", "NodeResourcesFit=2")
		if code != 0 || !strings.Contains(out, "what-if: pod shop/checkout-") {
			t.Errorf("whatif --pod %s: exit %d\n%s%s", handle, code, out, errOut)
		}
	}
}
