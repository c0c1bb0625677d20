/*
 * timer_wake: what an armed timer costs a thread that sleeps until a reply wakes it.
 *
 * A parent and a forked child ping-pong 14 bytes over a Unix socketpair, one exchange at a time
 * (as one call in flight does). The child always waits in poll(2) with no timeout; the parent
 * waits for each reply as MODE says:
 *   block          poll(2) with no timeout (the C echo's way)
 *   ppoll NANOS    ppoll(2) with a NANOS timeout (a bounded "hold", as the client's solo-call hold)
 *   timerfd NANOS  poll(2) with no timeout on the socket and a timerfd armed NANOS ahead
 * and prints the round trip's p50, the parent's CPU per exchange and its voluntary context
 * switches per exchange. On this project's Firecracker guests (HZ=250, NO_HZ_IDLE, haltpoll) a
 * timeout under ~4 ms added 4-10 us to each round trip and kept the waiting thread on its CPU,
 * while one of 10 ms or more cost nothing (benchmarks/PROFILE.md, "the hold's near timer").
 *
 * usage: timer_wake MODE [NANOS] [EXCHANGES]
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long monotonic_nanos(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec * 1000000000LL + now.tv_nsec;
}

static int compare_longs(const void *a, const void *b) {
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

static double micros(struct timeval t) { return t.tv_sec * 1e6 + t.tv_usec; }

/* The child: answers every message with the same bytes until the parent closes its end. */
static void echo(int fd) {
    char buffer[64];
    for (;;) {
        struct pollfd one = {fd, POLLIN, 0};
        poll(&one, 1, -1);
        ssize_t count = read(fd, buffer, sizeof buffer);
        if (count <= 0) _exit(0);
        if (write(fd, buffer, (size_t)count) != count) _exit(1);
    }
}

/* Waits until `fd` is readable, as `mode` says. */
static void wait_readable(int fd, const char *mode, long nanos, int timer) {
    struct pollfd one = {fd, POLLIN, 0};
    if (strcmp(mode, "block") == 0) {
        poll(&one, 1, -1);
    } else if (strcmp(mode, "ppoll") == 0) {
        struct timespec timeout = {nanos / 1000000000L, nanos % 1000000000L};
        while (ppoll(&one, 1, &timeout, NULL) == 0) {}
    } else {
        struct itimerspec armed = {{0, 0}, {nanos / 1000000000L, nanos % 1000000000L}};
        struct itimerspec disarmed = {{0, 0}, {0, 0}};
        timerfd_settime(timer, 0, &armed, NULL);
        struct pollfd both[2] = {{fd, POLLIN, 0}, {timer, POLLIN, 0}};
        for (;;) {
            poll(both, 2, -1);
            if (both[0].revents) break;
            unsigned long long expirations;
            if (read(timer, &expirations, sizeof expirations) < 0) {}
            timerfd_settime(timer, 0, &armed, NULL);
        }
        timerfd_settime(timer, 0, &disarmed, NULL);
    }
}

int main(int argc, char **argv) {
    if (argc < 2 || (strcmp(argv[1], "block") && strcmp(argv[1], "ppoll") && strcmp(argv[1], "timerfd"))) {
        fprintf(stderr, "usage: timer_wake block|ppoll|timerfd [NANOS] [EXCHANGES]\n");
        return 64;
    }
    const char *mode = argv[1];
    long nanos = argc > 2 ? atol(argv[2]) : 40000;
    int exchanges = argc > 3 ? atoi(argv[3]) : 20000;
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair) != 0) { perror("socketpair"); return 1; }
    pid_t child = fork();
    if (child == 0) { close(pair[0]); echo(pair[1]); }
    close(pair[1]);
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK);
    long long *round_trips = malloc(sizeof *round_trips * (size_t)exchanges);
    char message[64] = "ping";
    struct rusage before, after;
    getrusage(RUSAGE_SELF, &before);
    for (int i = 0; i < exchanges; i++) {
        long long start = monotonic_nanos();
        if (write(pair[0], message, 14) != 14) { perror("write"); return 1; }
        wait_readable(pair[0], mode, nanos, timer);
        if (read(pair[0], message, sizeof message) <= 0) { perror("read"); return 1; }
        round_trips[i] = monotonic_nanos() - start;
    }
    getrusage(RUSAGE_SELF, &after);
    qsort(round_trips, (size_t)exchanges, sizeof *round_trips, compare_longs);
    double cpu = (micros(after.ru_utime) - micros(before.ru_utime) + micros(after.ru_stime) - micros(before.ru_stime)) / exchanges;
    printf("mode=%s timeout_ns=%ld p50_us=%.1f cpu_us_per_exchange=%.1f voluntary_switches_per_exchange=%.2f\n",
           mode, strcmp(mode, "block") ? nanos : -1, round_trips[exchanges / 2] / 1000.0, cpu,
           (double)(after.ru_nvcsw - before.ru_nvcsw) / exchanges);
    close(pair[0]);
    waitpid(child, NULL, 0);
    return 0;
}
