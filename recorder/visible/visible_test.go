package visible

import "testing"

func TestString(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "node-a · 500m", "node-a · 500m"},
		{"wide runes kept", "节点-✓", "节点-✓"},
		{"OSC title and clear screen", "api\x1b]0;PWNED\x07\x1b[2J", `api\x1b]0;PWNED\x07\x1b[2J`},
		{"newline and carriage return", "a\nerror: forged\r", `a\nerror: forged\r`},
		{"tab", "a\tb", `a\tb`},
		{"del", "a\x7f", `a\x7f`},
		{"C1 control", "a\u009b31m", `a\u009b31m`},
		{"right-to-left override", "evil\u202etxt.exe", `evil\u202etxt.exe`},
		{"bidi embeddings and pop", "\u202a\u202b\u202c\u202d", `\u202a\u202b\u202c\u202d`},
		{"bidi isolates", "a\u2066b\u2067c\u2068d\u2069", `a\u2066b\u2067c\u2068d\u2069`},
		{"bidi marks", "a\u200eb\u200fc\u061c", `a\u200eb\u200fc\u061c`},
		{"zero-width space and joiner", "a\u200bb\u200dc", `a\u200bb\u200dc`},
		{"byte order mark", "\ufeffx", `\ufeffx`},
		{"line and paragraph separators", "a\u2028b\u2029", `a\u2028b\u2029`},
		{"invalid UTF-8", "a\xffb", `a\xffb`},
		{"replacement character itself", "a\ufffdb", "a\ufffdb"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in); got != tt.want {
				t.Errorf("String(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestEscape(t *testing.T) {
	tests := []struct {
		in   rune
		want string
	}{
		{'a', "a"},
		{'\n', `\n`},
		{0x1b, `\x1b`},
		{0x9b, `\u009b`},
		{'\u202e', `\u202e`},
		{'\u2069', `\u2069`},
	}
	for _, tt := range tests {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%U) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
