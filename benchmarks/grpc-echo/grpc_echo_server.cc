// grpc_echo_server: the peer a user would otherwise pick. A gRPC C++ unary echo served through the
// callback API (CallbackService + the context's default ServerUnaryReactor, answered inline, no
// thread hop of our own) on a `unix:` socket, insecure credentials (as a local broker would be).
//
// usage: grpc_echo_server --socket PATH

#include <grpcpp/grpcpp.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <unistd.h>

#include "echo.grpc.pb.h"

namespace {

class EchoService final : public hbbench::Echo::CallbackService {
    grpc::ServerUnaryReactor *Echo(grpc::CallbackServerContext *context, const hbbench::EchoMessage *request,
                                   hbbench::EchoMessage *reply) override {
        reply->set_payload(request->payload());
        grpc::ServerUnaryReactor *reactor = context->DefaultReactor();
        reactor->Finish(grpc::Status::OK);
        return reactor;
    }
};

void usage() {
    std::fprintf(stderr, "usage: grpc_echo_server --socket PATH\n");
    std::exit(2);
}

}  // namespace

int main(int argc, char **argv) {
    std::string path;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--socket") == 0 && i + 1 < argc) {
            path = argv[++i];
        } else {
            usage();
        }
    }
    if (path.empty()) usage();

    // Block the stop signals in every thread (gRPC's threads inherit the mask); one thread waits for
    // them and shuts the server down.
    sigset_t stop;
    sigemptyset(&stop);
    sigaddset(&stop, SIGINT);
    sigaddset(&stop, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &stop, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    unlink(path.c_str());
    EchoService service;
    grpc::ServerBuilder builder;
    builder.AddListeningPort("unix:" + path, grpc::InsecureServerCredentials());
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server) {
        std::fprintf(stderr, "grpc_echo_server: cannot listen on unix:%s\n", path.c_str());
        return 1;
    }
    std::fprintf(stderr, "grpc_echo_server: listening on unix:%s (pid %ld, gRPC %s)\n", path.c_str(),
                 (long)getpid(), grpc::Version().c_str());

    std::thread waiter([&] {
        int sig = 0;
        sigwait(&stop, &sig);
        server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    });
    server->Wait();
    waiter.join();
    unlink(path.c_str());
    return 0;
}
