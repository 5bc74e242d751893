package html

import (
	"strings"
	"testing"
)

// A recorded string gets into a page as text: no markup, no control
// character.
func TestEsc(t *testing.T) {
	if got := Esc("<script>\"x\"</script>\x1b[31m"); strings.ContainsAny(got, "<>\"\x1b") {
		t.Errorf("Esc = %q: markup or a control character gets through", got)
	}
}
