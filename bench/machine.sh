# Sourced by the benchmarks: says what machine the figures come from and how busy it was while
# they were taken (steal is CPU time the hypervisor gave to other guests: on a shared virtual
# machine it, not kbc, can make one session's figures twice another's).

# The CPU counters of /proc/stat: user nice system idle iowait irq softirq steal.
cpu_counters() { awk '/^cpu / { print $2, $3, $4, $5, $6, $7, $8, $9 }' /proc/stat; }

machine_start() {
  machine_counters=$(cpu_counters)
  echo "machine: $(nproc) cores, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
}

# The share of CPU time since machine_start that was busy, waiting for the disk, and stolen.
machine_report() {
  echo "$machine_counters $(cpu_counters)" | awk '{
    for (i = 1; i <= 8; ++i) { d[i] = $(i + 8) - $i; total += d[i] }
    if (total <= 0) total = 1
    printf "machine during the run: %.0f%% busy, %.0f%% waiting for the disk, %.0f%% stolen by the hypervisor\n",
           100 * (d[1] + d[2] + d[3] + d[6] + d[7]) / total, 100 * d[5] / total, 100 * d[8] / total
  }'
}
