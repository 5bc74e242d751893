// Package scale writes the fixtures the benchmarks measure schedscope at
// cluster scale with, so that each benchmark (the binary's, and the real
// kube-scheduler's on the e2e control plane) reads the same cluster.
package scale

import (
	"bytes"
	"fmt"
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
