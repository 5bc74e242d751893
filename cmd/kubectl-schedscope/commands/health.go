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
	// idle is how long a kept-alive connection may wait for its next
	// request before it is closed: probes come every few seconds, each
	// often on a new connection, and idle ones must not pile up.
	idle time.Duration
}

// healthIdle is how long the health server keeps an idle connection.
const healthIdle = 5 * time.Second

// serveHealth listens on addr (an error at once if it cannot) and serves
// until ctx ends.
func serveHealth(ctx context.Context, addr string) (*healthServer, error) {
	h := &healthServer{idle: healthIdle}
	if err := h.listen(ctx, addr); err != nil {
		return nil, err
	}
	return h, nil
}

// listen listens on addr and serves until ctx ends.
func (h *healthServer) listen(ctx context.Context, addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return errorf("--health-addr: %v", err)
	}
	h.addr = l.Addr().String()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /livez", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, _ *http.Request) {
		if err := h.notReady(); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		w.Write([]byte("ok\n"))
	})
	h.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, IdleTimeout: h.idle}
	go h.srv.Serve(l)
	go func() {
		<-ctx.Done()
		h.srv.Close()
	}()
	return nil
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
