#!/usr/bin/env python3
"""Where a batch's time goes, from the records of `imgpar ... --json`.

    imgpar blur photos/*.jpg --out-dir out --json > run.jsonl
    python3 bench/e2e/timeline.py run.jsonl [--bins 10]

Each image record carries start_s and done_s (seconds since the process
started: when a worker took the file, when its output was written) and the
time it spent in each step: decode_ms (read and decode), elapsed_ms
(compute), encode_ms (encode and write) and wait_ms (waiting for the memory
budget and for GPU sessions). From them: the start-up (to the first file
taken and the first written), the steady rate (the middle 80% of the
completions), how many files were in flight, and where the workers' time
went; then the files written in each slice of the run.
"""
import argparse
import json
import sys


def records(path):
    with (sys.stdin if path == "-" else open(path)) as f:
        for line in f:
            line = line.strip()
            if not line.startswith("{"):
                continue
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if r.get("ok") and not r.get("skipped") and "start_s" in r and "done_s" in r:
                yield r


def in_flight(files):
    """Mean and peak number of files between start_s and done_s."""
    events = sorted([(f["start_s"], 1) for f in files] + [(f["done_s"], -1) for f in files])
    now = peak = 0
    area = 0.0
    last = events[0][0]
    for t, step in events:
        area += now * (t - last)
        last = t
        now += step
        peak = max(peak, now)
    span = events[-1][0] - events[0][0]
    return (area / span if span > 0 else float(now)), peak


def summary(files, bins):
    files.sort(key=lambda f: f["done_s"])
    n = len(files)
    first_start = min(f["start_s"] for f in files)
    first_done, last_done = files[0]["done_s"], files[-1]["done_s"]
    lines = [f"files: {n}",
             f"first file taken {first_start:.3f} s, first written {first_done:.3f} s, last written {last_done:.3f} s "
             "(since the process started)"]
    lo, hi = n // 10, n - 1 - n // 10
    if hi > lo and files[hi]["done_s"] > files[lo]["done_s"]:
        rate = (hi - lo) / (files[hi]["done_s"] - files[lo]["done_s"])
        lines.append(f"steady: {rate:.1f} files/s (completions {lo + 1} to {hi + 1})")
    mean, peak = in_flight(files)
    lines.append(f"in flight: {mean:.1f} files on average, {peak} at most")
    steps = [("read+decode", "decode_ms"), ("compute", "elapsed_ms"), ("encode+write", "encode_ms"),
             ("waiting", "wait_ms")]
    total = sum((f["done_s"] - f["start_s"]) * 1000.0 for f in files)
    spent = {key: sum(f.get(key, 0.0) for f in files) for _, key in steps}
    # The rest: queues between the steps, copies, the sink's own work. A file
    # read ahead of its worker counts its read in decode_ms but before
    # start_s, so the rest can come out a little below 0: shown as 0.
    parts = [(label, spent[key]) for label, key in steps] + [("other", max(0.0, total - sum(spent.values())))]
    parts = [f"{label} {ms / n:.2f} ms" + (f" ({100.0 * ms / total:.0f}%)" if total > 0 else "") for label, ms in parts]
    lines.append("a file, taken to written, on average: " + ", ".join(parts))
    where = {}
    for f in files:
        key = f.get("decoded_on", "?") + ("/" + f["jpeg_decoder"] if "jpeg_decoder" in f else "")
        key += " -> encoded on " + f.get("encoded_on", "?")
        where[key] = where.get(key, 0) + 1
    lines.append("decoded/encoded: " + ", ".join(f"{k}: {v}" for k, v in sorted(where.items())))
    if bins > 0 and last_done > first_start:
        width = (last_done - first_start) / bins
        counts = [0] * bins
        for f in files:
            counts[min(bins - 1, int((f["done_s"] - first_start) / width))] += 1
        lines.append(f"written per {width:.3f} s from {first_start:.3f} s: " + " ".join(str(c) for c in counts))
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log", help="the --json output of a batch (- for standard input)")
    ap.add_argument("--bins", type=int, default=10, help="slices of the run for the files written in each (0: none)")
    args = ap.parse_args()
    files = list(records(args.log))
    if not files:
        sys.exit(f"timeline.py: {args.log}: no image records with start_s and done_s (run imgpar with --json)")
    print(summary(files, args.bins))


if __name__ == "__main__":
    main()
