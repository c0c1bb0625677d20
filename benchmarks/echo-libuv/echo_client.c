/*
 * echo_client: drives echo_server closed-loop. C connections, each keeping D frames of P payload bytes
 * in flight (5-byte framing); every reply that comes back is answered by a new frame, and all the new
 * frames of one read leave in one write. One libuv thread. Runs a warm-up, then measures for the
 * duration: calls/s, latency percentiles (log-linear histogram, send to reply), and with --server-pid
 * the server's CPU time per call from /proc/PID/stat.
 *
 * usage: echo_client --socket PATH [-c C] [-d D] [--payload-bytes P] [--duration S] [--warmup S]
 *                    [--server-pid PID] [--json FILE]
 */
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "../common/bench_common.h"

enum { WARMUP, MEASURE, DONE };

typedef struct {
    uv_pipe_t pipe;
    uv_connect_t connect_req;
    char *in;
    size_t in_len, in_cap;
    uint64_t *sent_ns; /* ring of send times; replies come back in order */
    unsigned head, count;
} conn_t;

static uv_loop_t *loop;
static const char *socket_path;
static int conns = 1, depth = 1, payload = 32;
static double duration_s = 5, warmup_s = 1;
static long server_pid = 0;
static const char *json_path;

static char *frames;     /* depth identical request frames, back to back; never modified after setup */
static size_t frame_len;
static conn_t *all;
static int phase = WARMUP;
static int connected = 0, closed = 0;
static bench_hist hist;
static uint64_t calls, errors;
static uint64_t t0, t1;
static int64_t scpu0, scpu1, ccpu0, ccpu1;
static uv_timer_t timer;

static void fail(const char *what, int r) {
    fprintf(stderr, "echo_client: %s: %s\n", what, uv_strerror(r));
    exit(1);
}

static void on_close(uv_handle_t *h) {
    (void)h;
    closed++;
}

static void on_write(uv_write_t *req, int status) {
    if (status < 0 && status != UV_ECANCELED && phase != DONE) fail("write", status);
    free(req);
}

/* Sends k frames on c in one write, noting their send time. */
static void send_frames(conn_t *c, unsigned k, uint64_t now) {
    for (unsigned i = 0; i < k; i++) {
        c->sent_ns[(c->head + c->count) % (unsigned)depth] = now;
        c->count++;
    }
    size_t len = (size_t)k * frame_len;
    uv_buf_t b = uv_buf_init(frames, (unsigned)len);
    int r = uv_try_write((uv_stream_t *)&c->pipe, &b, 1);
    if (r == (int)len) return;
    if (r < 0 && r != UV_EAGAIN) fail("try_write", r);
    size_t done = r > 0 ? (size_t)r : 0;
    uv_write_t *req = malloc(sizeof *req);
    uv_buf_t rest = uv_buf_init(frames + done, (unsigned)(len - done));
    r = uv_write(req, (uv_stream_t *)&c->pipe, &rest, 1, on_write);
    if (r < 0) fail("write", r);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)suggested;
    conn_t *c = (conn_t *)h->data;
    if (c->in_cap - c->in_len < 65536) {
        size_t cap = c->in_cap ? c->in_cap * 2 : 131072;
        while (cap - c->in_len < 65536) cap *= 2;
        c->in = realloc(c->in, cap);
        if (!c->in) {
            fprintf(stderr, "echo_client: out of memory\n");
            exit(1);
        }
        c->in_cap = cap;
    }
    buf->base = c->in + c->in_len;
    buf->len = c->in_cap - c->in_len;
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
    (void)buf;
    conn_t *c = (conn_t *)s->data;
    if (nread < 0) {
        if (phase != DONE) fail("read", (int)nread);
        return;
    }
    if (nread == 0) return;
    c->in_len += (size_t)nread;
    uint64_t now = bench_now_ns();
    size_t off = 0;
    unsigned done = 0;
    while (c->in_len - off >= 5) {
        const unsigned char *h = (const unsigned char *)c->in + off;
        uint32_t n = ((uint32_t)h[1] << 24) | ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 8) | h[4];
        if (c->in_len - off - 5 < n) break;
        if (h[0] != 0 || n != (uint32_t)payload) errors++;
        off += 5 + (size_t)n;
        if (c->count == 0) {
            fprintf(stderr, "echo_client: reply without a request\n");
            exit(1);
        }
        uint64_t sent = c->sent_ns[c->head];
        c->head = (c->head + 1) % (unsigned)depth;
        c->count--;
        if (phase == MEASURE) {
            bench_hist_record(&hist, now - sent);
            calls++;
        }
        done++;
    }
    if (off > 0) {
        memmove(c->in, c->in + off, c->in_len - off);
        c->in_len -= off;
    }
    if (done > 0 && phase != DONE) send_frames(c, done, bench_now_ns());
}

static void on_connect(uv_connect_t *req, int status) {
    conn_t *c = (conn_t *)req->data;
    if (status < 0) fail(socket_path, status);
    uv_read_start((uv_stream_t *)&c->pipe, on_alloc, on_read);
    connected++;
    send_frames(c, (unsigned)depth, bench_now_ns());
}

static void on_timer(uv_timer_t *t) {
    if (phase == WARMUP) {
        bench_hist_reset(&hist);
        calls = 0;
        errors = 0;
        scpu0 = bench_proc_cpu_us(server_pid);
        ccpu0 = bench_self_cpu_us();
        t0 = bench_now_ns();
        phase = MEASURE;
        uv_timer_start(t, on_timer, (uint64_t)(duration_s * 1000), 0);
        return;
    }
    t1 = bench_now_ns();
    scpu1 = bench_proc_cpu_us(server_pid);
    ccpu1 = bench_self_cpu_us();
    phase = DONE;
    for (int i = 0; i < conns; i++) uv_close((uv_handle_t *)&all[i].pipe, on_close);
    uv_close((uv_handle_t *)t, NULL);
}

static void usage(void) {
    fprintf(stderr,
            "usage: echo_client --socket PATH [-c CONNECTIONS] [-d DEPTH] [--payload-bytes P]\n"
            "                   [--duration S] [--warmup S] [--server-pid PID] [--json FILE]\n");
    exit(2);
}

int main(int argc, char **argv) {
    static const struct option opts[] = {
        {"socket", required_argument, 0, 's'},
        {"connections", required_argument, 0, 'c'},
        {"depth", required_argument, 0, 'd'},
        {"payload-bytes", required_argument, 0, 'p'},
        {"duration", required_argument, 0, 'D'},
        {"warmup", required_argument, 0, 'W'},
        {"server-pid", required_argument, 0, 'P'},
        {"json", required_argument, 0, 'j'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    int ch;
    while ((ch = getopt_long(argc, argv, "s:c:d:p:h", opts, NULL)) != -1) {
        switch (ch) {
        case 's': socket_path = optarg; break;
        case 'c': conns = atoi(optarg); break;
        case 'd': depth = atoi(optarg); break;
        case 'p': payload = atoi(optarg); break;
        case 'D': duration_s = atof(optarg); break;
        case 'W': warmup_s = atof(optarg); break;
        case 'P': server_pid = atol(optarg); break;
        case 'j': json_path = optarg; break;
        default: usage();
        }
    }
    if (!socket_path || conns < 1 || depth < 1 || payload < 0 || duration_s <= 0 || warmup_s < 0) usage();
    signal(SIGPIPE, SIG_IGN);

    frame_len = 5 + (size_t)payload;
    frames = malloc(frame_len * (size_t)depth);
    for (int i = 0; i < depth; i++) {
        unsigned char *f = (unsigned char *)frames + (size_t)i * frame_len;
        f[0] = 0;
        f[1] = (unsigned char)(payload >> 24);
        f[2] = (unsigned char)(payload >> 16);
        f[3] = (unsigned char)(payload >> 8);
        f[4] = (unsigned char)payload;
        for (int j = 0; j < payload; j++) f[5 + j] = (unsigned char)('a' + (j % 26));
    }

    loop = uv_default_loop();
    all = calloc((size_t)conns, sizeof *all);
    for (int i = 0; i < conns; i++) {
        conn_t *c = &all[i];
        c->sent_ns = calloc((size_t)depth, sizeof *c->sent_ns);
        uv_pipe_init(loop, &c->pipe, 0);
        c->pipe.data = c;
        c->connect_req.data = c;
        uv_pipe_connect(&c->connect_req, &c->pipe, socket_path, on_connect);
    }
    uv_timer_init(loop, &timer);
    uv_timer_start(&timer, on_timer, (uint64_t)(warmup_s * 1000), 0);
    uv_run(loop, UV_RUN_DEFAULT);

    double secs = (double)(t1 - t0) / 1e9;
    int64_t scpu = (scpu0 >= 0 && scpu1 >= 0) ? scpu1 - scpu0 : -1;
    bench_report("echo-libuv", conns, depth, payload, secs, calls, errors, &hist, scpu, ccpu1 - ccpu0,
                 json_path);
    return errors ? 1 : 0;
}
