package recorder

import "testing"

// A frame the writer makes opens to its body; a line without a checksum,
// with a malformed one or with one that does not match says which.
func TestOpenFrame(t *testing.T) {
	body := []byte(`{"kind":"end","n":3}`)
	head := frameHead(body)
	line := append(head[:], body...)
	if got, fault := openFrame(line); fault != frameOK || string(got) != string(body) {
		t.Errorf("openFrame(a written frame) = %q, %v", got, fault)
	}
	bad := append([]byte(nil), line...)
	bad[len(bad)-2] = '4'
	for _, tt := range []struct {
		line []byte
		want string
	}{
		{body, "missing checksum"},
		{append([]byte("zzzzzzzz "), body...), "malformed checksum"},
		{bad, "checksum mismatch"},
	} {
		if _, fault := openFrame(tt.line); fault.String() != tt.want {
			t.Errorf("openFrame(%q) = %q, want %q", tt.line, fault, tt.want)
		}
	}
}
