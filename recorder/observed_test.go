package recorder

import "testing"

func TestObservedAgrees(t *testing.T) {
	tests := []struct {
		name                    string
		o                       Observed
		wantAgrees, wantPreempt bool
	}{
		{"same node", Observed{Seq: 1, Node: "a", Predicted: "a"}, true, false},
		{"tie set", Observed{Seq: 1, Node: "b", Predicted: "a", TieSet: []string{"a", "b"}}, true, false},
		{"another node", Observed{Seq: 1, Node: "b", Predicted: "a"}, false, false},
		{"no node on both sides", Observed{Seq: 1}, true, false},
		{"bound where preemption nominated", Observed{Seq: 1, Node: "x2", Nominated: "x2"}, true, true},
		{"bound elsewhere than nominated", Observed{Seq: 1, Node: "x1", Nominated: "x2"}, false, false},
		{"unschedulable although nominated", Observed{Seq: 1, Nominated: "x2"}, true, false},
		{"no cycle", Observed{Node: "a"}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.o.Agrees(); got != tt.wantAgrees {
				t.Errorf("Agrees() = %v, want %v", got, tt.wantAgrees)
			}
			if got := tt.o.ViaPreemption(); got != tt.wantPreempt {
				t.Errorf("ViaPreemption() = %v, want %v", got, tt.wantPreempt)
			}
		})
	}
}
