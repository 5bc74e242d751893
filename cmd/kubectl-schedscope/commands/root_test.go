package commands

import (
	"strings"
	"testing"

	"k8s.io/cli-runtime/pkg/genericiooptions"
)

func TestDisplayName(t *testing.T) {
	tests := []struct {
		argv0 string
		want  string
	}{
		{"/usr/local/bin/kubectl-schedscope", "kubectl schedscope"},
		{"kubectl-schedscope", "kubectl schedscope"},
		{"/tmp/go-build123/b001/exe/kubectl-schedscope", "kubectl schedscope"},
		{"/home/me/bin/kubectl-sched_scope", "kubectl sched-scope"},
		{"/opt/schedscope", "schedscope"},
		{"/tmp/commands.test", "kubectl schedscope"},
	}
	for _, tt := range tests {
		t.Run(tt.argv0, func(t *testing.T) {
			if got := displayName(tt.argv0); got != tt.want {
				t.Errorf("displayName(%q) = %q, want %q", tt.argv0, got, tt.want)
			}
		})
	}
}

// TestUsageNamesTheCommandAsInvoked: usage says what the examples say.
func TestUsageNamesTheCommandAsInvoked(t *testing.T) {
	for _, tt := range []struct {
		name string
		args []string
		want []string
	}{
		{"kubectl schedscope", []string{"--help"}, []string{"kubectl schedscope [flags]", "kubectl schedscope [command]"}},
		{"kubectl schedscope", []string{"sim", "--help"}, []string{"kubectl schedscope sim [-f FIXTURE]"}},
		{"schedscope", []string{"--help"}, []string{"schedscope [flags]"}},
	} {
		t.Run(tt.name+" "+strings.Join(tt.args, " "), func(t *testing.T) {
			streams, _, out, _ := genericiooptions.NewTestIOStreams()
			cmd := newCmdRoot(streams, tt.name)
			cmd.SetArgs(tt.args)
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			for _, want := range tt.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("usage lacks %q:\n%s", want, out.String())
				}
			}
			if strings.Contains(out.String(), "kubectl-schedscope") {
				t.Errorf("usage still says kubectl-schedscope:\n%s", out.String())
			}
		})
	}
}
