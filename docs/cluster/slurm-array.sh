#!/bin/bash
# A Slurm job array: 8 tasks, each sketching one shard of a shared folder.
#   sbatch docs/cluster/slurm-array.sh
# then, once every task has ended:  sketchease report-merge /shared/reports/shard-*.json
# The folders and the command can be changed from the environment sbatch passes on, e.g.
#   SKETCHEASE_PHOTOS=/nfs/photos SKETCHEASE_SKETCHES=/nfs/sketches sbatch --array=1-32 docs/cluster/slurm-array.sh
# (Tests/SketchEaseCLITests/ClusterTests.swift submits this very file to a one-node Slurm.)
#SBATCH --job-name=sketchease
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --output=sketchease-%A_%a.log
set -euo pipefail
photos=${SKETCHEASE_PHOTOS:-/shared/photos}
sketches=${SKETCHEASE_SKETCHES:-/shared/sketches}
reports=${SKETCHEASE_REPORTS:-/shared/reports}
sketchease=${SKETCHEASE_COMMAND:-sketchease}
mkdir -p "$reports"
# --shard auto reads SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT.
srun "$sketchease" batch "$photos" --recursive --out "$sketches" \
    --jobs "$SLURM_CPUS_PER_TASK" --shard auto --report "$reports/shard-$SLURM_ARRAY_TASK_ID.json"
