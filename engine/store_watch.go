package engine

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
)

// storeWatcher is a watch of the in-memory API server that never refuses an
// event: what its reader has not taken yet waits in a queue of any length,
// delivered in order. The fake watchers of apimachinery hold a hundred
// events and then panic ("channel full"), which a run met as soon as
// something wrote faster than an informer read: the simulated kubelet
// starting the 40 000 bound pods of a cluster's snapshot whose kubelets had
// not started them. kube-apiserver would close such a watch and make the
// reflector list again; here every event reaches the reader, as the
// engine's counted handlers expect. apimachinery's other watchers either
// block the writer when full (FakeWatcher with a buffer, a Broadcaster that
// waits), which here holds the store's lock, or drop events.
//
// An event goes straight into the channel when nothing is queued and the
// channel has room; otherwise it is queued, and one goroutine, started for
// the backlog and gone once it is delivered, feeds the channel from the
// queue.
type storeWatcher struct {
	result chan watch.Event
	done   chan struct{}

	mu       sync.Mutex
	queue    []watch.Event
	draining bool // a goroutine is delivering the queue
	stopped  bool
}

var _ watch.Interface = (*storeWatcher)(nil)

// storeWatchBuffer is how many events a watch holds before its queue takes
// them: as many as apimachinery's fake watchers held.
const storeWatchBuffer = 100

func newStoreWatcher() *storeWatcher {
	return &storeWatcher{result: make(chan watch.Event, storeWatchBuffer), done: make(chan struct{})}
}

func (w *storeWatcher) ResultChan() <-chan watch.Event { return w.result }

// Stop ends the watch: the channel is closed, at once or once the goroutine
// delivering the queue has seen it, and later events are dropped.
func (w *storeWatcher) Stop() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.stopped = true
	w.queue = nil
	close(w.done)
	if !w.draining {
		close(w.result)
	}
}

// Add, Modify and Delete send an event of their kind for obj.
func (w *storeWatcher) Add(obj runtime.Object) {
	w.send(watch.Event{Type: watch.Added, Object: obj})
}

func (w *storeWatcher) Modify(obj runtime.Object) {
	w.send(watch.Event{Type: watch.Modified, Object: obj})
}

func (w *storeWatcher) Delete(obj runtime.Object) {
	w.send(watch.Event{Type: watch.Deleted, Object: obj})
}

func (w *storeWatcher) send(e watch.Event) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if len(w.queue) == 0 {
		select {
		case w.result <- e:
			return
		default:
		}
	}
	w.queue = append(w.queue, e)
	if !w.draining {
		w.draining = true
		go w.drain()
	}
}

// drain delivers the queue in order until it is empty or the watch stops.
// The event being delivered stays at the head of the queue until the reader
// took it, so that send queues behind it.
func (w *storeWatcher) drain() {
	for {
		w.mu.Lock()
		if w.stopped {
			w.draining = false
			close(w.result)
			w.mu.Unlock()
			return
		}
		if len(w.queue) == 0 {
			w.draining = false
			w.queue = nil
			w.mu.Unlock()
			return
		}
		e := w.queue[0]
		w.mu.Unlock()
		select {
		case w.result <- e:
		case <-w.done:
			continue // the next turn closes the channel
		}
		w.mu.Lock()
		if !w.stopped {
			w.queue[0] = watch.Event{}
			w.queue = w.queue[1:]
		}
		w.mu.Unlock()
	}
}
