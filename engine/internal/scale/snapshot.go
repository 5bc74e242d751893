// Package scale writes the fixtures the benchmarks measure schedscope at
// cluster scale with, so that each benchmark (the binary's, and the real
// kube-scheduler's on the e2e control plane) reads the same cluster.
package scale

import (
	"bytes"
	"fmt"

	"sigs.k8s.io/yaml"
)

// Snapshot writes a fixture shaped like a snapshot of a large
// cluster: nodes over three zones, bound pods spread over them in 50
// namespaces and 200 apps (one line of JSON each, as the snapshot command
// writes running pods), and pending pods, the last of which asks for
// more cpu than any node has (suggest's question).
func Snapshot(nodes, bound, pending int) []byte {
	var b bytes.Buffer
	for i := range nodes {
		fmt.Fprintf(&b, `apiVersion: v1
kind: Node
metadata:
  name: node-%05d
  labels: {kubernetes.io/hostname: node-%05d, topology.kubernetes.io/zone: zone-%d}
status:
  allocatable: {cpu: "16", memory: 64Gi, pods: "110"}
  capacity: {cpu: "16", memory: 64Gi, pods: "110"}
---
`, i, i, i%3)
	}
	for i := 0; i < 50; i++ {
		fmt.Fprintf(&b, "apiVersion: v1\nkind: Namespace\nmetadata: {name: ns-%d}\n---\n", i)
	}
	// Bound pods one per line as JSON, as the snapshot command writes them.
	for i := range bound {
		fmt.Fprintf(&b, `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"app-%06d","namespace":"ns-%d","labels":{"app":"app-%d"}},`+
			`"spec":{"nodeName":"node-%05d","containers":[{"name":"c","image":"nginx","resources":{"requests":{"cpu":"100m","memory":"128Mi"}}}]},`+
			`"status":{"phase":"Running"}}
---
`, i, i%50, i%200, i%nodes)
	}
	for i := range pending {
		cpu := "500m"
		if i == pending-1 {
			cpu = "17"
		}
		fmt.Fprintf(&b, `apiVersion: v1
kind: Pod
metadata: {name: pending-%d, namespace: default, labels: {app: pending}}
spec:
  containers: [{name: c, image: nginx, resources: {requests: {cpu: %q, memory: 256Mi}}}]
---
`, i, cpu)
	}
	return b.Bytes()
}

// AsYAML writes a snapshot's documents as kubectl get -o yaml writes
// objects: each document on its own, and all of them as the items of one
// List.
func AsYAML(snapshot []byte) (docs, list []byte, err error) {
	var d bytes.Buffer
	var items []any
	for _, doc := range bytes.Split(snapshot, []byte("\n---\n")) {
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		var v any
		if err := yaml.Unmarshal(doc, &v); err != nil {
			return nil, nil, err
		}
		y, err := yaml.Marshal(v)
		if err != nil {
			return nil, nil, err
		}
		d.Write(y)
		d.WriteString("---\n")
		items = append(items, v)
	}
	list, err = yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "items": items, "metadata": map[string]any{"resourceVersion": ""}})
	return d.Bytes(), list, err
}
