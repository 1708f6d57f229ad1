#!/usr/bin/env bash
# Quick start: installs what is missing (as root), builds, and runs the default
# experiment through cosim: 200 synthetic jobs (seed 001's D(q) model, sizes
# 1-32) with NPB-like class-S profiles on a 4-ary 3-tree (64 nodes), EASY with
# first-free, contiguous and quasi:qct=20 allocation, each job's run time
# emerging from SimGrid replays of every running job together
# (simgrid:mode=shared). Prints a table per allocator and writes
# results/default/ (summary.csv, wait.png, speedup.png, placement.png and a
# folder per allocator with its jobs.csv, summary.csv and log).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release > /dev/null
cmake --build build -j"$(nproc)" > /dev/null
build/bin/cosim \
	--synthetic dq:jobs=200,q=0.85,n1=1,n2=32,mean_run=600,load=0.9 --seed 1 \
	--machine kary-ntree:k=4,n=3 --sched easy \
	--alloc first-free --alloc contiguous --alloc quasi:qct=20 \
	--runtime simgrid:mode=shared,kernels=cg/mg/ft/is/lu,class=S \
	--out results/default
