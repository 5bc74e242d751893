package otel

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"strconv"

	"go.opentelemetry.io/otel/trace"

	"github.com/schedscope/schedscope/recorder"
)

// idGenerator gives the spans of a cycle IDs derived from the cycle (a
// traceSeed in the context), so that the same recording always exports
// as the same traces; without a seed, random IDs.
type idGenerator struct{}

type seedKey struct{}

// A traceSeed is one cycle's: the hash of its recording and number, and how
// many span IDs were taken from it.
type traceSeed struct {
	sum [sha256.Size]byte
	n   uint64
}

// seedFor is the seed of cycle c of the recording h begins.
func seedFor(h recorder.Header, c *recorder.Cycle) *traceSeed {
	hash := sha256.New()
	for _, s := range []string{h.Created.UTC().Format("2006-01-02T15:04:05.999999999Z"), h.Source.Kind, h.Source.Name, strconv.Itoa(c.Seq), c.Pod.UID} {
		hash.Write([]byte(s))
		hash.Write([]byte{0})
	}
	s := &traceSeed{}
	hash.Sum(s.sum[:0])
	return s
}

func (idGenerator) NewIDs(ctx context.Context) (trace.TraceID, trace.SpanID) {
	var tid trace.TraceID
	s, ok := ctx.Value(seedKey{}).(*traceSeed)
	if !ok {
		rand.Read(tid[:])
		return tid, idGenerator{}.NewSpanID(ctx, tid)
	}
	copy(tid[:], s.sum[:len(tid)])
	return tid, idGenerator{}.NewSpanID(ctx, tid)
}

func (idGenerator) NewSpanID(ctx context.Context, _ trace.TraceID) trace.SpanID {
	var sid trace.SpanID
	s, ok := ctx.Value(seedKey{}).(*traceSeed)
	if !ok {
		rand.Read(sid[:])
		return sid
	}
	s.n++
	var b [sha256.Size + 8]byte
	copy(b[:], s.sum[:])
	binary.BigEndian.PutUint64(b[sha256.Size:], s.n)
	sum := sha256.Sum256(b[:])
	copy(sid[:], sum[:len(sid)])
	return sid
}
