package recorder

import (
	"fmt"
	"hash/crc32"
)

func checksumLine(body []byte) string {
	return fmt.Sprintf("%08x %s\n", crc32.Checksum(body, castagnoli), body)
}
