#!/bin/bash
# A Slurm job array: 8 tasks, each sketching one shard of a shared folder.
#   sbatch docs/cluster/slurm-array.sh
# then, once every task has ended:  sketchease report-merge /shared/reports/shard-*.json
#SBATCH --job-name=sketchease
#SBATCH --array=1-8
#SBATCH --cpus-per-task=2
#SBATCH --mem=2G
#SBATCH --output=sketchease-%A_%a.log
set -euo pipefail
mkdir -p /shared/reports
# --shard auto reads SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_MIN and SLURM_ARRAY_TASK_COUNT.
srun sketchease batch /shared/photos --recursive --out /shared/sketches \
    --jobs "$SLURM_CPUS_PER_TASK" --shard auto --report "/shared/reports/shard-$SLURM_ARRAY_TASK_ID.json"
