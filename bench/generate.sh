#!/usr/bin/env bash
# Writes a synthetic knowledge base of N entries under DIR/entries, for benchmarks on machines
# without ../shared. Usage: bench/generate.sh DIR N
set -euo pipefail
dir="$1"
count="$2"
domains=(cuda tensorflow pytorch cudnn nccl)
for i in $(seq 1 "$count"); do
  domain=${domains[$((i % ${#domains[@]}))]}
  id="$domain/generated-error-$i/linux"
  mkdir -p "$dir/entries/$domain/generated-error-$i"
  cat >"$dir/entries/$id.yaml" <<YAML
id: $id
signature: 'RuntimeError: generated failure number $i in kernel k$((i * 7919 % 10007))'
signature_zh: '运行时错误：第 $i 号生成的失败'
regex: 'generated failure number $i in kernel k[0-9]+'
domain: $domain
category: runtime_error
root_cause: 'Synthetic root cause $i: a parameter outside the supported range reaches the library.'
root_cause_zh: '合成的根本原因 $i。'
versions:
- version: 'CUDA 12.$((i % 9))'
  status: active
dead_ends:
- action: 'Reinstall the driver (attempt $i)'
  why_fails: 'The driver is not the cause.'
  fail_rate: 0.9
- action: 'Restart the machine (attempt $i)'
  why_fails: 'The parameter is still out of range after a restart.'
  fail_rate: 0.95
dead_ends_zh:
- '重新安装驱动'
- '重启机器'
workarounds:
- action: 'Clamp the parameter into the supported range'
  success_rate: 0.9
  how: 'value = min(max(value, low), high)  # $i'
- action: 'Upgrade to the release that validates the parameter'
  success_rate: 0.7
  how: 'pip install --upgrade package==$((i % 5)).0'
workarounds_zh:
- '把参数限制在支持的范围内'
- '升级到会校验该参数的版本'
verification_tier: ai_generated
confidence: 0.8
fix_success_rate: 0.85
resolvable: 'true'
first_seen: '2024-01-$(printf %02d $((i % 28 + 1)))'
last_confirmed: '2024-06-01'
last_updated: '2024-06-01'
evidence_count: $((i % 40))
locale: en
YAML
done
