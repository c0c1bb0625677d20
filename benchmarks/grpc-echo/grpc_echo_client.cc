// grpc_echo_client: drives grpc_echo_server closed-loop with the CompletionQueue async API (no thread
// per call). C channels, each its own connection (distinct channel args and a local subchannel pool, so
// gRPC does not share one subchannel), each keeping D unary calls in flight; T threads, each polling
// its own CompletionQueue (default: one per core), re-issue a call as soon as one completes. Warm-up, then a measured window:
// calls/s, latency percentiles (log-linear histogram), and with --server-pid the server's CPU time per
// call from /proc/PID/stat.
//
// usage: grpc_echo_client --socket PATH [-c C] [-d D] [--threads T] [--payload-bytes P]
//                         [--duration S] [--warmup S] [--server-pid PID] [--json FILE]

#include <grpcpp/grpcpp.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "../common/bench_common.h"
#include "echo.grpc.pb.h"

namespace {

enum Phase { kWarmup = 0, kMeasure = 1, kDone = 2 };
std::atomic<int> phase{kWarmup};

struct Slot {
    hbbench::Echo::Stub *stub = nullptr;
    grpc::CompletionQueue *cq = nullptr;
    const hbbench::EchoMessage *request = nullptr;
    std::unique_ptr<grpc::ClientContext> context;
    std::unique_ptr<grpc::ClientAsyncResponseReader<hbbench::EchoMessage>> call;
    hbbench::EchoMessage reply;
    grpc::Status status;
    uint64_t sent_ns = 0;

    void Start() {
        context = std::make_unique<grpc::ClientContext>();
        reply.Clear();
        sent_ns = bench_now_ns();
        call = stub->AsyncEcho(context.get(), *request, cq);
        call->Finish(&reply, &status, this);
    }
};

struct Worker {
    grpc::CompletionQueue cq;
    std::vector<Slot *> slots;
    bench_hist *hist = nullptr;
    uint64_t calls = 0;
    uint64_t errors = 0;
    size_t payload = 0;
    std::string first_error;

    void Run() {
        size_t outstanding = slots.size();
        for (Slot *s : slots) s->Start();
        void *tag = nullptr;
        bool ok = false;
        while (outstanding > 0 && cq.Next(&tag, &ok)) {
            Slot *s = static_cast<Slot *>(tag);
            uint64_t now = bench_now_ns();
            int p = phase.load(std::memory_order_relaxed);
            bool good = ok && s->status.ok() && s->reply.payload().size() == payload;
            if (p == kMeasure) {
                bench_hist_record(hist, now - s->sent_ns);
                calls++;
                if (!good) errors++;
            }
            if (!good && first_error.empty()) {
                first_error = ok ? s->status.error_message() : "completion not ok";
                if (first_error.empty()) first_error = "wrong reply size";
            }
            if (p == kDone) {
                outstanding--;
            } else {
                s->Start();
            }
        }
        cq.Shutdown();
        while (cq.Next(&tag, &ok)) {
        }
    }
};

void usage() {
    std::fprintf(stderr,
                 "usage: grpc_echo_client --socket PATH [-c CONNECTIONS] [-d DEPTH] [--threads T]\n"
                 "                        [--payload-bytes P] [--duration S] [--warmup S]\n"
                 "                        [--server-pid PID] [--json FILE]\n");
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv) {
    std::string path, json;
    int conns = 1, depth = 1, threads = 0, payload = 32;
    double duration = 5, warmup = 1;
    long server_pid = 0;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        auto next = [&]() -> const char * {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (a == "--socket") path = next();
        else if (a == "-c" || a == "--connections") conns = std::atoi(next());
        else if (a == "-d" || a == "--depth") depth = std::atoi(next());
        else if (a == "-t" || a == "--threads") threads = std::atoi(next());
        else if (a == "--payload-bytes") payload = std::atoi(next());
        else if (a == "--duration") duration = std::atof(next());
        else if (a == "--warmup") warmup = std::atof(next());
        else if (a == "--server-pid") server_pid = std::atol(next());
        else if (a == "--json") json = next();
        else usage();
    }
    if (threads == 0) threads = static_cast<int>(std::thread::hardware_concurrency());
    if (path.empty() || conns < 1 || depth < 1 || threads < 1 || payload < 0 || duration <= 0 || warmup < 0)
        usage();
    if (threads > conns * depth) threads = conns * depth;

    hbbench::EchoMessage request;
    std::string body(static_cast<size_t>(payload), 'a');
    for (int j = 0; j < payload; j++) body[static_cast<size_t>(j)] = static_cast<char>('a' + j % 26);
    request.set_payload(body);

    std::vector<std::shared_ptr<grpc::Channel>> channels;
    std::vector<std::unique_ptr<hbbench::Echo::Stub>> stubs;
    for (int i = 0; i < conns; i++) {
        grpc::ChannelArguments args;
        args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
        args.SetInt("hbbench.connection_index", i);  // distinct args: never the same subchannel
        auto channel = grpc::CreateCustomChannel("unix:" + path, grpc::InsecureChannelCredentials(), args);
        if (!channel->WaitForConnected(std::chrono::system_clock::now() + std::chrono::seconds(5))) {
            std::fprintf(stderr, "grpc_echo_client: cannot connect to unix:%s\n", path.c_str());
            return 1;
        }
        stubs.push_back(hbbench::Echo::NewStub(channel));
        channels.push_back(std::move(channel));
    }

    std::vector<std::unique_ptr<Worker>> workers;
    for (int t = 0; t < threads; t++) {
        auto w = std::make_unique<Worker>();
        w->hist = static_cast<bench_hist *>(std::calloc(1, sizeof(bench_hist)));
        w->payload = static_cast<size_t>(payload);
        workers.push_back(std::move(w));
    }
    std::vector<std::unique_ptr<Slot>> slots;
    for (int i = 0; i < conns; i++) {
        for (int d = 0; d < depth; d++) {
            auto s = std::make_unique<Slot>();
            Worker &w = *workers[slots.size() % workers.size()];
            s->stub = stubs[static_cast<size_t>(i)].get();
            s->cq = &w.cq;
            s->request = &request;
            w.slots.push_back(s.get());
            slots.push_back(std::move(s));
        }
    }

    std::vector<std::thread> running;
    for (auto &w : workers) running.emplace_back([&w] { w->Run(); });

    std::this_thread::sleep_for(std::chrono::duration<double>(warmup));
    int64_t scpu0 = bench_proc_cpu_us(server_pid);
    int64_t ccpu0 = bench_self_cpu_us();
    uint64_t t0 = bench_now_ns();
    phase.store(kMeasure);
    std::this_thread::sleep_for(std::chrono::duration<double>(duration));
    phase.store(kDone);
    uint64_t t1 = bench_now_ns();
    int64_t scpu1 = bench_proc_cpu_us(server_pid);
    int64_t ccpu1 = bench_self_cpu_us();
    for (auto &t : running) t.join();

    bench_hist *total = static_cast<bench_hist *>(std::calloc(1, sizeof(bench_hist)));
    uint64_t calls = 0, errors = 0;
    for (auto &w : workers) {
        bench_hist_merge(total, w->hist);
        calls += w->calls;
        errors += w->errors;
        if (!w->first_error.empty()) std::fprintf(stderr, "grpc_echo_client: error: %s\n", w->first_error.c_str());
    }
    int64_t scpu = (scpu0 >= 0 && scpu1 >= 0) ? scpu1 - scpu0 : -1;
    std::fprintf(stderr, "grpc_echo_client: %d connection(s), %d polling thread(s)\n", conns, threads);
    bench_report("grpc-echo", conns, depth, payload, static_cast<double>(t1 - t0) / 1e9, calls, errors, total, scpu,
                 ccpu1 - ccpu0, json.empty() ? nullptr : json.c_str());
    return errors ? 1 : 0;
}
