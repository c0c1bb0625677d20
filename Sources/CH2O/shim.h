#pragma once
// libh2o (Debian's libh2o-dev: the build of h2o on libuv) for BrokerTransport's HTTP server, the only
// importer. The helpers below stand in for h2o's macros (H2O_STRLIT, the H2O_TOKEN_* constants,
// H2O_VECTOR) and for the small structs that carry an owner pointer, which Swift cannot spell.
#define H2O_USE_LIBUV 1
#include <uv.h>
#include <h2o.h>

/// A request handler with room for its owner (BrokerTransport's HTTPServer, unretained).
typedef struct {
    h2o_handler_t super;
    void *owner;
} ch2o_handler_t;

/// Registers a handler for every path of `pathconf`; `on_req` finds its owner with ch2o_handler_owner.
static inline h2o_handler_t *ch2o_create_handler(h2o_pathconf_t *pathconf, void *owner,
                                                 int (*on_req)(h2o_handler_t *, h2o_req_t *)) {
    ch2o_handler_t *handler = (ch2o_handler_t *)h2o_create_handler(pathconf, sizeof(ch2o_handler_t));
    handler->owner = owner;
    handler->super.on_req = on_req;
    return &handler->super;
}

static inline void *ch2o_handler_owner(h2o_handler_t *handler) {
    return ((ch2o_handler_t *)handler)->owner;
}

/// Memory in the request's pool holding an owner pointer; `dispose` runs when h2o frees the request
/// (after the response, or when the peer went away first), so the owner learns the request is gone.
static inline void **ch2o_request_slot(h2o_req_t *req, void *owner, void (*dispose)(void *)) {
    void **slot = (void **)h2o_mem_alloc_shared(&req->pool, sizeof(void *), dispose);
    *slot = owner;
    return slot;
}

/// A streaming generator with room for its owner: h2o calls `proceed` when the last h2o_send is
/// written out and `stop` when the peer goes away mid-stream.
typedef struct {
    h2o_generator_t super;
    void *owner;
} ch2o_generator_t;

static inline h2o_generator_t *ch2o_create_generator(h2o_req_t *req, void *owner,
                                                     void (*proceed)(h2o_generator_t *, h2o_req_t *),
                                                     void (*stop)(h2o_generator_t *, h2o_req_t *)) {
    ch2o_generator_t *generator = (ch2o_generator_t *)h2o_mem_alloc_pool(&req->pool, sizeof(ch2o_generator_t));
    generator->super.proceed = proceed;
    generator->super.stop = stop;
    generator->owner = owner;
    return &generator->super;
}

static inline void *ch2o_generator_owner(h2o_generator_t *generator) {
    return ((ch2o_generator_t *)generator)->owner;
}

static inline h2o_iovec_t ch2o_iovec(const void *base, size_t len) {
    return h2o_iovec_init(base, len);
}

/// Registers the one host and root path the server serves, with the h2o defaults.
static inline h2o_pathconf_t *ch2o_register_root(h2o_globalconf_t *config) {
    h2o_hostconf_t *host = h2o_config_register_host(config, h2o_iovec_init(H2O_STRLIT("default")), 65535);
    return h2o_config_register_path(host, "/", 0);
}

static inline size_t ch2o_header_count(const h2o_req_t *req) { return req->headers.size; }

static inline h2o_iovec_t ch2o_header_name(const h2o_req_t *req, size_t index) {
    return *req->headers.entries[index].name;
}

static inline h2o_iovec_t ch2o_header_value(const h2o_req_t *req, size_t index) {
    return req->headers.entries[index].value;
}

/// Sets the response's status line (the reason is copied into the request's pool).
static inline void ch2o_set_status(h2o_req_t *req, int status, const char *reason) {
    req->res.status = status;
    req->res.reason = h2o_strdup(&req->pool, reason, SIZE_MAX).base;
}

/// Adds one response header (name and value copied into the request's pool).
static inline void ch2o_add_header(h2o_req_t *req, const char *name, size_t name_len, const char *value, size_t value_len) {
    h2o_iovec_t copied_name = h2o_strdup(&req->pool, name, name_len);
    h2o_iovec_t copied_value = h2o_strdup(&req->pool, value, value_len);
    h2o_add_header_by_str(&req->pool, &req->res.headers, copied_name.base, copied_name.len, 1, NULL,
                          copied_value.base, copied_value.len);
}
