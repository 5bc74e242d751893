package recorder

import (
	"fmt"
	"hash/crc32"
	"strconv"
)

// A record's frame is its line: the CRC-32C of the JSON body in 8 hex
// digits, a space, the body, a newline. frameHead writes a frame's start
// and openFrame checks one: every reader (the sequential reader, the index
// skimmer and random access to a cycle) opens lines through openFrame, and
// the writer frames through frameHead.

// frameFault is why a line is not a frame whose body can be read.
type frameFault uint8

const (
	frameOK frameFault = iota
	frameNoChecksum
	frameBadChecksum
	frameMismatch
)

// String is the fault as readers report it (ErrCorrupt.Reason).
func (f frameFault) String() string {
	switch f {
	case frameNoChecksum:
		return "missing checksum"
	case frameBadChecksum:
		return "malformed checksum"
	case frameMismatch:
		return "checksum mismatch"
	}
	return ""
}

// frameHead is the start of body's frame: its checksum and the space.
func frameHead(body []byte) [9]byte {
	var head [9]byte
	copy(head[:], fmt.Sprintf("%08x ", crc32.Checksum(body, castagnoli)))
	return head
}

// openFrame checks a record line (without its newline) against its
// checksum and returns the JSON body, or why it cannot be trusted.
func openFrame(line []byte) ([]byte, frameFault) {
	if len(line) < 10 || line[8] != ' ' {
		return nil, frameNoChecksum
	}
	want, err := strconv.ParseUint(string(line[:8]), 16, 32)
	if err != nil {
		return nil, frameBadChecksum
	}
	body := line[9:]
	if crc32.Checksum(body, castagnoli) != uint32(want) {
		return nil, frameMismatch
	}
	return body, frameOK
}
