#pragma once
#include <atomic>
#include <cstdio>
#include <ctime>
inline double thread_cpu() { timespec t; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t); return t.tv_sec + t.tv_nsec * 1e-9; }
inline std::atomic<long long> g_probe[8];
struct ProbeReport { ~ProbeReport() { for (int i = 0; i < 8; ++i) if (g_probe[i]) fprintf(stderr, "probe%d %.3f s\n", i, g_probe[i] / 1e9); } };
inline ProbeReport g_probe_report;
struct Probe { int k; double t = thread_cpu(); ~Probe() { g_probe[k] += (long long)((thread_cpu() - t) * 1e9); } };
