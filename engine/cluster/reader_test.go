package cluster

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/rest"
)

// TestReaderSendsOnlyReads: a write through the reader's client fails before
// it leaves the process; a read goes through.
func TestReaderSendsOnlyReads(t *testing.T) {
	var mu sync.Mutex
	var got []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Method+" "+r.URL.Path)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"Namespace","apiVersion":"v1","metadata":{"name":"default"}}`))
	}))
	defer srv.Close()
	r, err := New(&rest.Config{Host: srv.URL}, "test")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	tests := []struct {
		name      string
		call      func() error
		wantError string
	}{
		{"get", func() error {
			_, err := r.Client().CoreV1().Namespaces().Get(ctx, "default", metav1.GetOptions{})
			return err
		}, ""},
		{"create", func() error {
			_, err := r.Client().CoreV1().Namespaces().Create(ctx, &v1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "x"}}, metav1.CreateOptions{})
			return err
		}, "schedscope is read-only: refused POST /api/v1/namespaces"},
		{"delete", func() error {
			return r.Client().CoreV1().Namespaces().Delete(ctx, "default", metav1.DeleteOptions{})
		}, "schedscope is read-only: refused DELETE /api/v1/namespaces/default"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.call()
			switch {
			case tt.wantError == "" && err != nil:
				t.Fatalf("got %v, want the request through", err)
			case tt.wantError != "" && (err == nil || !strings.Contains(err.Error(), tt.wantError)):
				t.Fatalf("got %v, want an error containing %q", err, tt.wantError)
			}
		})
	}
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"GET /api/v1/namespaces/default"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("the server received %q, want %q", got, want)
	}
}

// The reader asks for built-in kinds as protobuf, as kube-scheduler does,
// and takes JSON from a server that answers with it.
func TestReaderAsksForProtobuf(t *testing.T) {
	var accept string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		accept = r.Header.Get("Accept")
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"kind":"PodList","apiVersion":"v1","metadata":{},"items":[{"metadata":{"name":"p","namespace":"default"}}]}`))
	}))
	defer srv.Close()
	r, err := New(&rest.Config{Host: srv.URL}, "test")
	if err != nil {
		t.Fatal(err)
	}
	pods, err := r.Client().CoreV1().Pods("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(pods.Items) != 1 || pods.Items[0].Name != "p" {
		t.Errorf("listed %v from a JSON answer", pods.Items)
	}
	if !strings.HasPrefix(accept, "application/vnd.kubernetes.protobuf") || !strings.Contains(accept, "application/json") {
		t.Errorf("Accept: %q, want protobuf first and JSON after it", accept)
	}
}
