package commands

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// healthServer answers a kubelet's probes for live --health-addr: /livez
// while the process runs, /readyz once the cluster is mirrored and while
// the API server answers.
type healthServer struct {
	mu    sync.Mutex
	ready bool
	lost  error
	srv   *http.Server
	// addr is where it listens.
	addr string
}

// serveHealth listens on addr (an error at once if it cannot) and serves
// until ctx ends.
func serveHealth(ctx context.Context, addr string) (*healthServer, error) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, errorf("--health-addr: %v", err)
	}
	h := &healthServer{addr: l.Addr().String()}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if err := h.notReady(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	h.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go h.srv.Serve(l)
	go func() {
		<-ctx.Done()
		h.srv.Close()
	}()
	return h, nil
}

func (h *healthServer) notReady() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case !h.ready:
		return errors.New("mirroring the cluster")
	case h.lost != nil:
		return h.lost
	}
	return nil
}

// setReady says the mirror is ready to predict.
func (h *healthServer) setReady() {
	h.mu.Lock()
	h.ready = true
	h.mu.Unlock()
}

// connection notes losing (err != nil) and regaining the API server.
func (h *healthServer) connection(err error) {
	h.mu.Lock()
	h.lost = err
	h.mu.Unlock()
}
