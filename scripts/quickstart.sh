#!/usr/bin/env bash
# Quick start: installs what is missing (as root), builds, and runs the default
# experiment: EASY on a synthetic D(q) workload on 256 flat nodes. Writes
# results/default/ (jobs.csv, summary.csv, series.csv, utilization.png).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" > /dev/null
mkdir -p results/default
build/bin/jobsched \
	--synthetic dq:jobs=5000,q=0.95,n1=1,n2=256,mean_run=3600,load=0.85,req_factor=2 \
	--seed 1 --machine flat:nodes=256 --sched easy --alloc first-free --runtime log \
	--jobs-out results/default/jobs.csv --summary-out results/default/summary.csv \
	--series-out results/default/series.csv --plot results/default/utilization.png
echo "wrote results/default/{jobs.csv,summary.csv,series.csv,utilization.png}"
