package otlptest

import (
	"net"
	"sync"
	"testing"
)

// Silent listens on 127.0.0.1 and accepts every connection, then never
// reads from it nor answers: a backend that hangs. It returns its
// http:// URL; the listener and the connections close when the test ends.
func Silent(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	return "http://" + ln.Addr().String()
}
