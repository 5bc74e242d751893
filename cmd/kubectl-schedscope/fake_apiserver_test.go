package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeAPIServer serves, read-only, what live mode reads of a cluster of one
// node and the pending pods given: discovery of the core group, lists, and
// watches that start with the initial events' bookmark and then stay open
// with nothing to tell. It returns a kubeconfig for it.
func fakeAPIServer(t *testing.T, pods int) string {
	t.Helper()
	kinds := map[string]string{"nodes": "Node", "pods": "Pod", "namespaces": "Namespace", "services": "Service",
		"persistentvolumes": "PersistentVolume", "persistentvolumeclaims": "PersistentVolumeClaim", "replicationcontrollers": "ReplicationController"}
	namespaced := map[string]bool{"pods": true, "services": true, "persistentvolumeclaims": true, "replicationcontrollers": true}
	items := map[string][]any{
		"nodes": {map[string]any{"metadata": map[string]any{"name": "node-1", "resourceVersion": "1", "labels": map[string]string{"kubernetes.io/hostname": "node-1"}},
			"status": map[string]any{"allocatable": map[string]string{"cpu": "1000", "memory": "1000Gi", "pods": "100000"},
				"capacity": map[string]string{"cpu": "1000", "memory": "1000Gi", "pods": "100000"}}}},
		"namespaces": {map[string]any{"metadata": map[string]any{"name": "default", "resourceVersion": "1"}, "status": map[string]any{"phase": "Active"}}},
	}
	for i := range pods {
		items["pods"] = append(items["pods"], map[string]any{
			"metadata": map[string]any{"name": fmt.Sprintf("p-%d", i), "namespace": "default", "uid": fmt.Sprintf("uid-%d", i), "resourceVersion": "1", "creationTimestamp": "2026-01-01T00:00:00Z"},
			"spec": map[string]any{"schedulerName": "default-scheduler", "containers": []any{map[string]any{"name": "c", "image": "nginx",
				"resources": map[string]any{"requests": map[string]string{"cpu": "1m"}}}}},
			"status": map[string]any{"phase": "Pending"}})
	}
	write := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(v)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := strings.TrimSuffix(r.URL.Path, "/")
		switch path {
		case "/version":
			write(w, map[string]string{"major": "1", "minor": "37", "gitVersion": "v1.37.1"})
			return
		case "/api":
			write(w, map[string]any{"kind": "APIVersions", "versions": []string{"v1"}})
			return
		case "/apis":
			write(w, map[string]any{"kind": "APIGroupList", "apiVersion": "v1", "groups": []any{}})
			return
		case "/api/v1":
			var res []any
			for name, kind := range kinds {
				res = append(res, map[string]any{"name": name, "kind": kind, "namespaced": namespaced[name], "verbs": []string{"get", "list", "watch"}})
			}
			write(w, map[string]any{"kind": "APIResourceList", "groupVersion": "v1", "resources": res})
			return
		case "/livez", "/readyz", "/healthz":
			w.Write([]byte("ok"))
			return
		}
		parts := strings.Split(strings.TrimPrefix(path, "/api/v1/"), "/")
		if len(parts) == 3 && parts[0] == "namespaces" {
			parts = parts[2:]
		}
		kind, ok := kinds[parts[0]]
		if len(parts) != 1 || !ok {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("watch") == "true" || r.URL.Query().Get("watch") == "1" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			if r.URL.Query().Get("sendInitialEvents") == "true" {
				for _, it := range items[parts[0]] {
					json.NewEncoder(w).Encode(map[string]any{"type": "ADDED", "object": withKind(it, kind)})
				}
				json.NewEncoder(w).Encode(map[string]any{"type": "BOOKMARK", "object": map[string]any{"kind": kind, "apiVersion": "v1",
					"metadata": map[string]any{"resourceVersion": "1", "annotations": map[string]string{"k8s.io/initial-events-end": "true"}}}})
			}
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		var list []any
		for _, it := range items[parts[0]] {
			list = append(list, withKind(it, kind))
		}
		if list == nil {
			list = []any{}
		}
		write(w, map[string]any{"kind": kind + "List", "apiVersion": "v1", "metadata": map[string]any{"resourceVersion": "1"}, "items": list})
	}))
	t.Cleanup(srv.Close)
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	config := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters: [{name: fake, cluster: {server: %q}}]\nusers: [{name: u, user: {token: t}}]\ncontexts: [{name: fake, context: {cluster: fake, user: u}}]\ncurrent-context: fake\n", srv.URL)
	if err := os.WriteFile(kc, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	return kc
}

func withKind(item any, kind string) any {
	m := map[string]any{"kind": kind, "apiVersion": "v1"}
	for k, v := range item.(map[string]any) {
		m[k] = v
	}
	return m
}
