/*
 * Shared by the benchmark baselines (C and C++): a monotonic clock, a log-linear latency histogram,
 * CPU time of a process from /proc, and the one-line result every client prints.
 *
 * The histogram keeps 2^(HIST_BITS-1) linear sub-buckets per power of two, so any recorded value is
 * reported within 1/2^(HIST_BITS-1) (0.8% with 8 bits) of itself, in constant memory.
 */
#ifndef BENCH_COMMON_H
#define BENCH_COMMON_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/resource.h>

#define HIST_BITS 8
#define HIST_SUB (1u << (HIST_BITS - 1))
#define HIST_SIZE ((64 - (HIST_BITS - 1)) * HIST_SUB + (1u << HIST_BITS))

typedef struct {
    uint64_t counts[HIST_SIZE];
    uint64_t total;
    uint64_t max;
} bench_hist;

static inline uint64_t bench_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline unsigned bench_hist_index(uint64_t v) {
    if (v < (1ull << HIST_BITS)) return (unsigned)v;
    unsigned msb = 63u - (unsigned)__builtin_clzll(v);
    unsigned shift = msb - (HIST_BITS - 1);
    return (shift << (HIST_BITS - 1)) + (unsigned)(v >> shift);
}

/* The midpoint of the values that land in bucket i. */
static inline uint64_t bench_hist_value(unsigned i) {
    if (i < (1u << HIST_BITS)) return i;
    unsigned shift = (i >> (HIST_BITS - 1)) - 1;
    uint64_t m = i - (shift << (HIST_BITS - 1));
    return (m << shift) + ((1ull << shift) >> 1);
}

static inline void bench_hist_reset(bench_hist *h) { memset(h, 0, sizeof *h); }

static inline void bench_hist_record(bench_hist *h, uint64_t v) {
    h->counts[bench_hist_index(v)]++;
    h->total++;
    if (v > h->max) h->max = v;
}

static inline void bench_hist_merge(bench_hist *into, const bench_hist *from) {
    for (unsigned i = 0; i < HIST_SIZE; i++) into->counts[i] += from->counts[i];
    into->total += from->total;
    if (from->max > into->max) into->max = from->max;
}

/* The value at quantile q (0 < q <= 1): the smallest bucket whose cumulative count reaches q·total. */
static inline uint64_t bench_hist_quantile(const bench_hist *h, double q) {
    if (h->total == 0) return 0;
    uint64_t want = (uint64_t)(q * (double)h->total + 0.999999);
    if (want < 1) want = 1;
    uint64_t seen = 0;
    for (unsigned i = 0; i < HIST_SIZE; i++) {
        seen += h->counts[i];
        if (seen >= want) {
            uint64_t v = bench_hist_value(i);
            return v > h->max ? h->max : v;
        }
    }
    return h->max;
}

/* utime + stime of a whole process (all its threads, live and exited), in microseconds; -1 if unreadable. */
static inline int64_t bench_proc_cpu_us(long pid) {
    if (pid <= 0) return -1;
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char buf[1024];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    /* The command name is in parentheses and may contain spaces: fields count from the last ')'. */
    char *p = strrchr(buf, ')');
    if (!p) return -1;
    p += 2; /* now at field 3 (state) */
    unsigned long long utime = 0, stime = 0;
    int field = 3;
    while (*p && field < 14) {
        if (*p == ' ') field++;
        p++;
    }
    if (sscanf(p, "%llu %llu", &utime, &stime) != 2) return -1;
    long hz = sysconf(_SC_CLK_TCK);
    return (int64_t)((utime + stime) * 1000000ull / (unsigned long long)hz);
}

static inline int64_t bench_self_cpu_us(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (int64_t)ru.ru_utime.tv_sec * 1000000 + ru.ru_utime.tv_usec +
           (int64_t)ru.ru_stime.tv_sec * 1000000 + ru.ru_stime.tv_usec;
}

/*
 * Prints the result line that benchmarks/run.sh parses, and the same as JSON to json_path when given
 * (keys as healthload's --json: calls_per_second, latency_us.{p50,p90,p99,p999,max},
 * broker_cpu_us_per_call; plus client_cpu_us_per_call). Latencies are in microseconds.
 */
static inline void bench_report(const char *system, int conns, int depth, int payload, double seconds,
                                uint64_t calls, uint64_t errors, const bench_hist *h,
                                int64_t server_cpu_us, int64_t client_cpu_us, const char *json_path) {
    double cps = seconds > 0 ? (double)calls / seconds : 0;
    double p50 = bench_hist_quantile(h, 0.50) / 1000.0;
    double p90 = bench_hist_quantile(h, 0.90) / 1000.0;
    double p99 = bench_hist_quantile(h, 0.99) / 1000.0;
    double p999 = bench_hist_quantile(h, 0.999) / 1000.0;
    double mx = h->max / 1000.0;
    double scpu = (server_cpu_us >= 0 && calls > 0) ? (double)server_cpu_us / (double)calls : -1;
    double ccpu = (client_cpu_us >= 0 && calls > 0) ? (double)client_cpu_us / (double)calls : -1;
    char scpu_text[32];
    if (scpu >= 0) snprintf(scpu_text, sizeof scpu_text, "%.2f", scpu);
    else snprintf(scpu_text, sizeof scpu_text, "n/a");
    printf("%s %dx%d payload=%dB: %.0f calls/s over %.2f s (%llu calls, %llu errors); latency us p50 %.1f "
           "p90 %.1f p99 %.1f p99.9 %.1f max %.1f; server CPU %s us/call; client CPU %.2f us/call\n",
           system, conns, depth, payload, cps, seconds, (unsigned long long)calls,
           (unsigned long long)errors, p50, p90, p99, p999, mx, scpu_text, ccpu);
    printf("RESULT system=%s conns=%d depth=%d payload=%d calls=%llu errors=%llu seconds=%.3f cps=%.1f "
           "p50_us=%.1f p90_us=%.1f p99_us=%.1f p999_us=%.1f max_us=%.1f server_cpu_us_per_call=%.3f "
           "client_cpu_us_per_call=%.3f\n",
           system, conns, depth, payload, (unsigned long long)calls, (unsigned long long)errors, seconds,
           cps, p50, p90, p99, p999, mx, scpu, ccpu);
    fflush(stdout);
    if (json_path && *json_path) {
        FILE *f = fopen(json_path, "w");
        if (!f) {
            perror(json_path);
            return;
        }
        fprintf(f,
                "{\"system\":\"%s\",\"connections\":%d,\"depth\":%d,\"payload_bytes\":%d,"
                "\"duration_seconds\":%.3f,\"calls\":%llu,\"errors\":%llu,\"calls_per_second\":%.1f,"
                "\"latency_us\":{\"p50\":%.1f,\"p90\":%.1f,\"p99\":%.1f,\"p999\":%.1f,\"max\":%.1f},"
                "\"broker_cpu_us_per_call\":%.3f,\"client_cpu_us_per_call\":%.3f}\n",
                system, conns, depth, payload, seconds, (unsigned long long)calls,
                (unsigned long long)errors, cps, p50, p90, p99, p999, mx, scpu, ccpu);
        fclose(f);
    }
}

#endif
