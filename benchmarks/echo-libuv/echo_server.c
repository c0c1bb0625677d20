/*
 * echo_server: the transport's near-physical limit. A single-threaded libuv server on a Unix socket
 * that reads HealthBroker's 5-byte framing (flags byte 0, 4-byte big-endian length, body), splits each
 * read into frames, and echoes every complete frame back; all the replies of one read leave in one
 * uv_try_write (or one uv_write for whatever the socket did not take at once). No protobuf.
 *
 * usage: echo_server --socket PATH [--max-frame-bytes N]
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#define MIN_FREE 65536

typedef struct {
    uv_pipe_t pipe;
    char *in;           /* bytes read and not yet consumed as frames */
    size_t in_len, in_cap;
    char *out;          /* reused reply buffer while no write is pending on it */
    size_t out_cap;
} conn_t;

typedef struct {
    uv_write_t req;
    char *data;
} write_t;

static uv_loop_t *loop;
static uv_pipe_t server;
static uv_signal_t sigint_h, sigterm_h;
static const char *socket_path;
static uint32_t max_frame = 4u << 20;

static void die_oom(void) {
    fprintf(stderr, "echo_server: out of memory\n");
    exit(1);
}

static void on_close(uv_handle_t *h) {
    conn_t *c = (conn_t *)h->data;
    free(c->in);
    free(c->out);
    free(c);
}

static void close_conn(conn_t *c) {
    if (!uv_is_closing((uv_handle_t *)&c->pipe)) uv_close((uv_handle_t *)&c->pipe, on_close);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf) {
    (void)suggested;
    conn_t *c = (conn_t *)h->data;
    if (c->in_cap - c->in_len < MIN_FREE) {
        size_t cap = c->in_cap ? c->in_cap * 2 : 2 * MIN_FREE;
        while (cap - c->in_len < MIN_FREE) cap *= 2;
        char *p = realloc(c->in, cap);
        if (!p) die_oom();
        c->in = p;
        c->in_cap = cap;
    }
    buf->base = c->in + c->in_len;
    buf->len = c->in_cap - c->in_len;
}

static void on_write(uv_write_t *req, int status) {
    write_t *w = (write_t *)req;
    if (status < 0 && status != UV_ECANCELED) {
        conn_t *c = (conn_t *)req->handle->data;
        close_conn(c);
    }
    free(w->data);
    free(w);
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf) {
    (void)buf;
    conn_t *c = (conn_t *)s->data;
    if (nread < 0) {
        close_conn(c);
        return;
    }
    if (nread == 0) return;
    c->in_len += (size_t)nread;

    /* Split into frames; copy each complete one into the reply buffer (as a real server would encode
     * a reply per request). */
    size_t off = 0, out_len = 0;
    while (c->in_len - off >= 5) {
        const unsigned char *h = (const unsigned char *)c->in + off;
        if (h[0] != 0) {
            close_conn(c);
            return;
        }
        uint32_t n = ((uint32_t)h[1] << 24) | ((uint32_t)h[2] << 16) | ((uint32_t)h[3] << 8) | h[4];
        if (n > max_frame) {
            close_conn(c);
            return;
        }
        if (c->in_len - off - 5 < n) break;
        size_t frame = 5 + (size_t)n;
        if (out_len + frame > c->out_cap) {
            size_t cap = c->out_cap ? c->out_cap : 4096;
            while (cap < out_len + frame) cap *= 2;
            char *p = realloc(c->out, cap);
            if (!p) die_oom();
            c->out = p;
            c->out_cap = cap;
        }
        memcpy(c->out + out_len, c->in + off, frame);
        out_len += frame;
        off += frame;
    }
    if (off > 0) {
        memmove(c->in, c->in + off, c->in_len - off);
        c->in_len -= off;
    }
    if (out_len == 0) return;

    uv_buf_t b = uv_buf_init(c->out, (unsigned)out_len);
    int r = uv_try_write(s, &b, 1);
    if (r == (int)out_len) return; /* all taken: the reply buffer is free again */
    if (r < 0 && r != UV_EAGAIN) {
        close_conn(c);
        return;
    }
    size_t done = r > 0 ? (size_t)r : 0;
    /* Hand the buffer to a queued write; the next read gets a fresh one. */
    write_t *w = malloc(sizeof *w);
    if (!w) die_oom();
    w->data = c->out;
    c->out = NULL;
    c->out_cap = 0;
    uv_buf_t rest = uv_buf_init(w->data + done, (unsigned)(out_len - done));
    if (uv_write(&w->req, s, &rest, 1, on_write) < 0) {
        free(w->data);
        free(w);
        close_conn(c);
    }
}

static void on_connection(uv_stream_t *srv, int status) {
    if (status < 0) {
        fprintf(stderr, "echo_server: accept: %s\n", uv_strerror(status));
        return;
    }
    conn_t *c = calloc(1, sizeof *c);
    if (!c) die_oom();
    uv_pipe_init(loop, &c->pipe, 0);
    c->pipe.data = c;
    if (uv_accept(srv, (uv_stream_t *)&c->pipe) != 0) {
        close_conn(c);
        return;
    }
    uv_read_start((uv_stream_t *)&c->pipe, on_alloc, on_read);
}

static void on_signal(uv_signal_t *h, int signum) {
    (void)h;
    (void)signum;
    uv_stop(loop);
}

static void usage(void) {
    fprintf(stderr, "usage: echo_server --socket PATH [--max-frame-bytes N]\n");
    exit(2);
}

int main(int argc, char **argv) {
    static const struct option opts[] = {
        {"socket", required_argument, 0, 's'},
        {"max-frame-bytes", required_argument, 0, 'm'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    int ch;
    while ((ch = getopt_long(argc, argv, "s:m:h", opts, NULL)) != -1) {
        switch (ch) {
        case 's': socket_path = optarg; break;
        case 'm': max_frame = (uint32_t)strtoul(optarg, NULL, 10); break;
        default: usage();
        }
    }
    if (!socket_path) usage();
    signal(SIGPIPE, SIG_IGN);

    loop = uv_default_loop();
    unlink(socket_path);
    uv_pipe_init(loop, &server, 0);
    int r = uv_pipe_bind(&server, socket_path);
    if (r == 0) r = uv_listen((uv_stream_t *)&server, 1024, on_connection);
    if (r != 0) {
        fprintf(stderr, "echo_server: %s: %s\n", socket_path, uv_strerror(r));
        return 1;
    }
    uv_signal_init(loop, &sigint_h);
    uv_signal_start(&sigint_h, on_signal, SIGINT);
    uv_signal_init(loop, &sigterm_h);
    uv_signal_start(&sigterm_h, on_signal, SIGTERM);
    fprintf(stderr, "echo_server: listening on %s (pid %ld)\n", socket_path, (long)getpid());

    uv_run(loop, UV_RUN_DEFAULT);
    unlink(socket_path);
    return 0;
}
