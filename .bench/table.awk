# Turns `go test -bench` output into the results table: each figure beside its
# target, and whether the run met it. Input: raw benchmark lines; variables
# machine, when, goversion and load come from the Makefile.
function metric(line, unit,    n, i, f) {
	n = split(line, f, /[ \t]+/)
	for (i = 2; i < n; i++) if (f[i+1] == unit) return f[i] + 0
	return ""
}
function row(figure, workload, value, fmtv, target, ok) {
	if (value == "") { printf("| %s | %s | not measured | %s | — |\n", figure, workload, target); return }
	printf("| %s | %s | " fmtv " | %s | %s |\n", figure, workload, value, target, ok ? "met" : "**missed**")
}
/^Benchmark/ { name = $1; sub(/-[0-9]+$/, "", name); line[name] = $0 }
END {
	print "# Benchmark results"
	print ""
	printf("Measured by `make bench` on %s, %s, with %s.\n", machine, when, goversion)
	print "Raw output: `.bench/raw.txt`. Ratios are measured side by side in one run."
	if (load != "") printf("Load average (1, 5, 15 min) when the run ended: %s — the machine may be shared, and absolute rates move with it.\n", load)
	print ""
	print "| figure | workload | measured | target | |"
	print "|---|---|---|---|---|"
	for (k = 1; k <= 2; k++) {
		w = (k == 1) ? "nodes=1000/pods=2000" : "nodes=5000/pods=1000"
		l = line["BenchmarkRecordingOverhead/" w]
		r = metric(l, "seq-ratio")
		row("engine, sequential arrival: recorded ÷ bare pods/s", sprintf("%s (bare %.0f, recorded %.0f pods/s)", w, metric(l, "bare-seq-pods/s"), metric(l, "recorded-seq-pods/s")), r, "%.3f", "≥ 0.95", r >= 0.95)
		r = metric(l, "burst-ratio")
		row("engine, burst arrival: recorded ÷ bare pods/s", sprintf("%s (bare %.0f, recorded %.0f pods/s)", w, metric(l, "bare-burst-pods/s"), metric(l, "recorded-burst-pods/s")), r, "%.3f", "≥ 0.95", r >= 0.95)
		r = metric(l, "seq/burst")
		row("engine, recorded: sequential ÷ burst pods/s", w, r, "%.3f", (k == 1) ? "≥ 0.8" : "—", (k == 1) ? r >= 0.8 : 1)
	}
	for (k = 1; k <= 2; k++) {
		a = (k == 1) ? "sequential" : "burst"
		l = line["BenchmarkRecordCommand/arrival=" a]
		w = sprintf("1 000 nodes × 2 000 pods, %s (record %.0f, bare engine %.0f pods/s)", a, metric(l, "record-pods/s"), metric(l, "bare-pods/s"))
		r = metric(l, "ratio")
		row("record binary ÷ bare scheduler pods/s (fixture runs at the scheduler's speed)", w, r, "%.3f", "≥ 0.9", r >= 0.9)
		row("record binary ÷ bare scheduler pods/s (recording overhead through the command)", w, r, "%.3f", "≥ 0.95", r >= 0.95)
		v = metric(l, "peak-RSS-MB"); row("record binary: peak RSS", "1 000 nodes × 2 000 pods, " a, v, "%.0f MB", "—", 1)
		v = metric(l, "wall-s"); row("record binary: process start to exit", "1 000 nodes × 2 000 pods, " a, v, "%.1f s", "—", 1)
	}
	l = line["BenchmarkRecordOTLP"]
	w = sprintf("1 000 nodes × 2 000 pods, sequential, to the Collector's OTLP receiver on this machine at nice 19 (record %.0f, with --otlp-endpoint %.0f pods/s, %.0f records dropped)", metric(l, "bare-pods/s"), metric(l, "otlp-pods/s"), metric(l, "dropped"))
	v = metric(l, "ratio"); row("record --otlp-endpoint ÷ record pods/s (trace export overhead)", w, v, "%.3f", "≥ 0.95", v >= 0.95)
	v = metric(l, "spans/s"); row("export --otlp: spans per second sustained to the local receiver", "the same 2 000 cycles (37 spans each)", v, "%.0f", "—", 1)
	l = line["BenchmarkDeploymentVersusBarePods"]
	v = metric(l, "deployment/bare")
	row("a Deployment of 2 000 replicas ÷ 2 000 bare pods, time to settled (controllers, kubelet and all)", sprintf("1 000 nodes, burst (bare %.2f s, Deployment %.2f s)", metric(l, "bare-s"), metric(l, "deployment-s")), v, "%.2f", "≤ 1.2", v <= 1.2)
	l = line["BenchmarkSnapshotScale"]
	w = "5 000 nodes, 40 000 bound pods, 20 pending (binary, process start to exit)"
	v = metric(l, "explain-s"); row("`explain --pod` of a snapshot, first question (no cache)", w, v, "%.1f s", "≤ 3 s", v <= 3)
	v = metric(l, "explain-stdin-s"); row("`explain -f - --pod`, the snapshot piped in (no cache)", w, v, "%.1f s", "≤ 3 s", v <= 3)
	v = metric(l, "yaml/json-explain"); row("`explain --pod` of the snapshot as YAML ÷ as JSON (kubectl get -o yaml's form; no cache)", sprintf("%s (YAML %.1f s, JSON %.1f s)", w, metric(l, "yaml-explain-s"), metric(l, "explain-s")), v, "%.2f", "≤ 1.3", v <= 1.3)
	v = metric(l, "list/json-explain"); row("`explain --pod` of the snapshot as one `kind: List` in YAML ÷ as JSON (kubectl get nodes,pods -A -o yaml; no cache)", sprintf("%s (List %.1f s)", w, metric(l, "list-explain-s")), v, "%.2f", "—", 1)
	v = metric(l, "explain-peak-RSS-MB"); row("peak RSS of that explain (no cache)", w, v, "%.0f MB", "≤ 600 MB", v <= 600)
	v = metric(l, "whatif-s"); row("`whatif --set-weight` (one change; no cache)", w, v, "%.1f s", "≤ 3.5 s", v <= 3.5)
	v = metric(l, "suggest-s"); row("`suggest` (default budget) for a pod that fits nowhere (no cache)", w, v, "%.1f s", "≤ 6 s", v <= 6)
	v = metric(l, "explain-writing-cache-s"); row("`explain --pod`, first question, writing the admitted-fixture cache", w, v, "%.1f s", "—", 1)
	v = metric(l, "cached-explain-s"); row("`explain --pod`, a later question (cache read)", w, v, "%.1f s", "≤ 3 s", v <= 3)
	v = metric(l, "cached-explain-stdin-s"); row("`explain -f - --pod`, piped in, a later question (cache read)", w, v, "%.1f s", "≤ 3 s", v <= 3)
	v = metric(l, "cached-explain-peak-RSS-MB"); row("peak RSS of that explain (cache read)", w, v, "%.0f MB", "≤ 600 MB", v <= 600)
	v = metric(l, "cached-whatif-s"); row("`whatif --set-weight`, a later question (cache read)", w, v, "%.1f s", "≤ 3.5 s", v <= 3.5)
	v = metric(l, "cached-suggest-s"); row("`suggest`, a later question (cache read)", w, v, "%.1f s", "≤ 6 s", v <= 6)
	v = metric(l, "objects/s"); row("fixture objects decoded and admitted per second", sprintf("the same snapshot, %.0f bytes per object", metric(l, "fixture-B/object")), v, "%.0f", "≥ 20 000", v >= 20000)
	v = metric(l, "sim-first-frame-s"); row("`sim` first frame (process start to the debugger on screen, in tmux; no cache)", w, v, "%.2f s", "≤ 2 s", v <= 2)
	v = metric(l, "sim-first-cycle-s"); row("`sim`: process start to the first cycle on screen (no cache)", w, v, "%.1f s", "—", 1)
	capMB = 600 * 100000 / 45070
	w = "5 000 nodes, 94 930 bound pods, 20 pending, 50 namespaces: 100 000 objects, the cap (binary, no cache)"
	v = metric(l, "cap-explain-s"); row("`explain --pod` of a fixture at the object cap", w, v, "%.1f s", "—", 1)
	v = metric(l, "cap-explain-peak-RSS-MB"); row("peak RSS of that explain", w, v, "%.0f MB", sprintf("≤ %.0f MB (600 MB × 100 000 ÷ 45 070 objects)", capMB), v <= capMB)
	w = "the same with one bound pod more: 100 001 objects (binary)"
	v = metric(l, "over-cap-refused-s"); row("a fixture over the cap refused, with a one-line error naming its line", w, v, "%.2f s", "≤ 1 s (at once)", v <= 1)
	v = metric(l, "over-cap-peak-RSS-MB"); row("peak RSS of that refusal", w, v, "%.0f MB", "—", 1)
	explain = metric(l, "explain-s")
	l = line["BenchmarkSnapshotVersusKubeScheduler"]
	ks = metric(l, "kube-scheduler-first-binding-s")
	v = metric(l, "live-ready-s"); row("`live` ready to predict (process start to its first cycle)", "e2e API server, 5 000 nodes, 40 000 bound pods, 20 pending", v, "%.1f s", "≤ 10 s", v <= 10)
	v = metric(l, "live-RSS-MB"); row("`live`: resident memory when ready to predict", sprintf("the same (%.0f MB with the nodes and pending pods alone; peak %.0f MB)", metric(l, "live-no-bound-RSS-MB"), metric(l, "live-peak-RSS-MB")), v, "%.0f MB", "—", 1)
	w = sprintf("e2e API server, 5 000 nodes, 40 000 bound pods, 20 pending: the manifest %.1f MB (binary, process start to exit)", metric(l, "snapshot-bytes") / 1e6)
	v = metric(l, "snapshot-explain-s"); row("`snapshot` of that cluster piped into `explain -f - --pod` (no cache)", w, v, "%.1f s", "≤ 3 s", v <= 3)
	v = metric(l, "snapshot-explain-peak-RSS-MB"); row("peak RSS of that explain", w, v, "%.0f MB", "≤ 600 MB", v <= 600)
	v = metric(l, "snapshot-s"); row("`snapshot` of that cluster", w, v, "%.1f s", "—", 1)
	v = metric(l, "live-KB/bound-pod"); row("`live`: the mirror's memory per bound pod (resident, with 40 000 against none)", "the same", v, "%.1f KB", "—", 1)
	row("kube-scheduler: start to first binding", "the same cluster on the e2e API server (in its process)", ks, "%.1f s", "—", 1)
	v = (ks > 0 && explain != "") ? explain / ks : ""
	row("`explain` ÷ kube-scheduler start to first binding", sprintf("explain %.1f s, kube-scheduler %.1f s", explain, ks), v, "%.2f", "≤ 1.5", v <= 1.5)
	l = line["BenchmarkWriteCycle5000Nodes"]
	v = metric(l, "B/cycle"); row("bytes per recorded cycle", "5 000 nodes, default profile", v, "%.0f B", "≤ 16 384 B", v <= 16384)
	v = metric(l, "cycles/s"); row("cycles written per second", "5 000 nodes, default profile", v, "%.0f", "≥ 2 000", v >= 2000)
	worst = ""; worstName = ""
	for (n in line) if (n ~ /^BenchmarkView5000Nodes\//) {
		p = metric(line[n], "p99-ms")
		if (worst == "" || p > worst) { worst = p; worstName = n }
		p50 = metric(line[n], "p50-ms"); if (p50 > worst50) worst50 = p50
	}
	sub(/^BenchmarkView5000Nodes\//, "", worstName)
	row("TUI View() p50 (slowest view)", "5 000 nodes", worst50, "%.2f ms", "—", 1)
	row("TUI View() p99 (slowest view: " worstName ")", "5 000 nodes", worst, "%.2f ms", "≤ 16 ms", worst <= 16)
	l = line["BenchmarkReplayBinary"]
	gb = metric(l, "file-GB"); w = sprintf("replay binary, %.2f GB of 5 000-node cycles", gb)
	v = metric(l, "first-frame-ms"); row("replay: process start to first frame with a cycle", w, v, "%.0f ms", "≤ 200 ms", v <= 200)
	v = metric(l, "command-to-first-frame-ms"); row("replay: command start to first frame (without process init)", w, v, "%.0f ms", "—", 1)
	v = metric(l, "seek-p50-ms"); row("replay: :cycle N to its frame, median of 20", w, v, "%.1f ms", "≤ 50 ms", v <= 50)
	v = metric(l, "seek-max-ms"); row("replay: :cycle N to its frame, slowest of 20", w, v, "%.1f ms", "≤ 50 ms", v <= 50)
	v = metric(l, "peak-RSS-MB"); row("replay: peak RSS", w, v, "%.0f MB", "≤ 300 MB", v <= 300)
	v = metric(l, "index-MB/s"); row("replay: whole file indexed (from process start)", w, v, "%.0f MB/s", "≥ 200 MB/s", v >= 200)
	l = line["BenchmarkReplay1GB"]
	gb = metric(l, "file-GB")
	v = metric(l, "open-to-first-ms"); row("recorder.File library: open to first cycle", sprintf("%.2f GB recording", gb), v, "%.2f ms", "—", 1)
	v = metric(l, "seek-ms"); row("recorder.File library: Seek to a random cycle", sprintf("%.2f GB recording", gb), v, "%.2f ms", "—", 1)
	v = metric(l, "heap-inuse-MB"); row("recorder.File library: heap in use", sprintf("%.2f GB recording", gb), v, "%.1f MB", "—", 1)
	l = line["BenchmarkLargestCluster"]
	v = metric(l, "B/cycle"); row("largest cluster recorded, read back whole", "15 000 nodes (bytes per cycle)", v, "%.0f B", "completes", v > 0)
	l = line["BenchmarkVersusKubeScheduler"]
	v = metric(l, "ratio")
	row("schedscope ÷ real kube-scheduler pods/s, default client QPS", sprintf("1 000 nodes × 1 000 pods (kube-scheduler %.0f, schedscope %.0f pods/s)", metric(l, "kube-scheduler-pods/s"), metric(l, "schedscope-pods/s")), v, "%.1f", "—", 1)
	v = metric(l, "ratio-tuned")
	row("schedscope ÷ real kube-scheduler pods/s, tuned (--kube-api-qps/--kube-api-burst 5000)", sprintf("1 000 nodes × 1 000 pods (kube-scheduler %.0f, schedscope %.0f pods/s)", metric(l, "kube-scheduler-tuned-pods/s"), metric(l, "schedscope-pods/s")), v, "%.1f", "≥ 2", v >= 2)
}
