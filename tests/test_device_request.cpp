// --device parsing (gpu:all, lists) and the policy that spreads a batch's
// files over several GPUs, on simulated devices: no GPU needed.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "src/backend.hpp"
#include "src/error.hpp"
#include "src/session_scheduler.hpp"

using namespace imgpar;

namespace {

std::string refusal(const std::string& text) {
    try {
        parse_device_request(text);
    } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::Usage);
        return e.what();
    }
    FAIL("accepted: " << text);
    return {};
}

using Kind = SessionScheduler::Pick::Kind;

}  // namespace

TEST_CASE("device request: auto, cpu, gpu, gpu:N, gpu:N,M and gpu:all") {
    CHECK(parse_device_request("auto").kind == DeviceRequest::Kind::Auto);
    CHECK(parse_device_request("cpu").kind == DeviceRequest::Kind::Cpu);
    const DeviceRequest any = parse_device_request("gpu");
    CHECK(any.kind == DeviceRequest::Kind::Gpu);
    CHECK(any.gpu_list.empty());
    CHECK_FALSE(any.all_gpus);

    const DeviceRequest one = parse_device_request("gpu:3");
    CHECK(one.gpu_list == std::vector<int>{3});

    const DeviceRequest list = parse_device_request("gpu:2,0,7");
    CHECK(list.kind == DeviceRequest::Kind::Gpu);
    CHECK(list.gpu_list.front() == 2);  // a single file runs on the first listed
    CHECK(list.gpu_list == std::vector<int>{2, 0, 7});

    const DeviceRequest all = parse_device_request("gpu:all");
    CHECK(all.kind == DeviceRequest::Kind::Gpu);
    CHECK(all.all_gpus);
    CHECK(all.gpu_list.empty());
}

TEST_CASE("device request: malformed lists and a GPU named twice are usage errors that say what is allowed") {
    for (const char* bad : {"tpu", "gpu:", "gpu:x", "gpu:1,", "gpu:,1", "gpu:1,,2", "gpu:-1", "gpu:1000", "gpu:0 ,1",
                            "gpu:ALL", "gpux", "gpu;0", "GPU"}) {
        CAPTURE(bad);
        const std::string why = refusal(bad);
        CHECK(why.find("allowed: auto, cpu, gpu, gpu:N, gpu:N,M,... or gpu:all") != std::string::npos);
    }
    CHECK(refusal("gpu:0,1,0").find("GPU 0 is named twice") != std::string::npos);
}

TEST_CASE("device request: without a usable GPU, every GPU form plans none and gpu forms fail with the device code") {
    // This runs where no GPU is usable (CI; the GPU suite covers the rest).
    if (!planned_gpus(parse_device_request("gpu")).empty()) return;
    for (const char* text : {"gpu", "gpu:0", "gpu:0,1", "gpu:all"}) {
        CAPTURE(text);
        CHECK(planned_gpus(parse_device_request(text)).empty());
        try {
            select_backend(parse_device_request(text));
            FAIL("a GPU was selected");
        } catch (const Error& e) {
            CHECK(e.kind() == ErrorKind::Device);
            CHECK(std::string(e.what()).find("no usable GPU") != std::string::npos);
        }
    }
    CHECK(select_backend(parse_device_request("auto")).backend == Backend::Cpu);
}

TEST_CASE("session scheduler: one GPU opens up to its limit, then reuses, then waits") {
    SessionScheduler s(1, 3, 8);
    for (int i = 0; i < 3; ++i) {
        const auto p = s.pick();
        REQUIRE(p.kind == Kind::Open);
        CHECK(p.gpu == 0);
        s.open(0);
    }
    CHECK(s.pick().kind == Kind::Wait);
    s.give_back(0);
    CHECK(s.pick().kind == Kind::Reuse);
    s.take_idle(0);
    CHECK(s.opened_total() == 3);
    CHECK(s.pick().kind == Kind::Wait);
}

TEST_CASE("session scheduler: the total bounds the sessions over all GPUs") {
    SessionScheduler s(4, 16, 5);
    for (int i = 0; i < 5; ++i) {
        const auto p = s.pick();
        REQUIRE(p.kind == Kind::Open);
        s.open(p.gpu);
    }
    CHECK(s.pick().kind == Kind::Wait);
    // Spread as evenly as the total allows: 2, 1, 1, 1.
    std::vector<int> opened;
    for (int g = 0; g < 4; ++g) opened.push_back(s.opened(g));
    CHECK(opened == std::vector<int>{2, 1, 1, 1});
}

TEST_CASE("session scheduler: files go to the least busy GPU; a faster GPU takes more of them") {
    // Two simulated GPUs, GPU 1 three times as fast: 8 workers lease, and a
    // lease on GPU g ends after 3 ticks on GPU 0 or 1 tick on GPU 1.
    SessionScheduler s(2, 4, 8);
    struct Busy {
        int gpu;
        int ends;
    };
    std::vector<Busy> busy;
    int files[2] = {0, 0};
    for (int tick = 0; tick < 300; ++tick) {
        for (auto it = busy.begin(); it != busy.end();) {
            if (it->ends <= tick) {
                s.give_back(it->gpu);
                it = busy.erase(it);
            } else {
                ++it;
            }
        }
        while (busy.size() < 8) {
            const auto p = s.pick();
            REQUIRE(p.kind != Kind::Wait);  // 8 workers, 8 sessions: never a wait
            if (p.kind == Kind::Open)
                s.open(p.gpu);
            else
                s.take_idle(p.gpu);
            ++files[p.gpu];
            busy.push_back({p.gpu, tick + (p.gpu == 0 ? 3 : 1)});
        }
    }
    CHECK(s.opened(0) == 4);
    CHECK(s.opened(1) == 4);
    // Each GPU keeps its 4 sessions busy: GPU 1 does three times the files.
    CHECK(files[1] > 2.5 * files[0]);
    CHECK(files[1] < 3.5 * files[0]);
}

TEST_CASE("session scheduler: ties go to an idle session, then to the GPU listed first") {
    SessionScheduler s(2, 4, 8);
    auto p = s.pick();
    CHECK((p.kind == Kind::Open && p.gpu == 0));
    s.open(0);
    p = s.pick();
    CHECK((p.kind == Kind::Open && p.gpu == 1));  // GPU 0 is busier
    s.open(1);
    s.give_back(1);
    // GPU 0: 1 busy; GPU 1: 0 busy, 1 idle.
    p = s.pick();
    CHECK((p.kind == Kind::Reuse && p.gpu == 1));
    s.take_idle(1);
    // Both 1 busy and none idle: the first listed.
    p = s.pick();
    CHECK((p.kind == Kind::Open && p.gpu == 0));
    s.open(0);
    s.give_back(0);
    // GPU 0: 1 busy 1 idle; GPU 1: 1 busy: reuse beats opening.
    p = s.pick();
    CHECK((p.kind == Kind::Reuse && p.gpu == 0));
}

TEST_CASE("session scheduler: a GPU that is starting or failed takes no new session; a failed open frees its place") {
    SessionScheduler s(2, 2, 4);
    s.open(1);  // GPU 1's first session opens on its own thread
    s.set_open_allowed(1, false);
    for (int i = 0; i < 2; ++i) {
        const auto p = s.pick();
        REQUIRE(p.kind == Kind::Open);
        CHECK(p.gpu == 0);
        s.open(0);
    }
    CHECK(s.pick().kind == Kind::Wait);  // GPU 0 is full, GPU 1 still starting
    s.give_back(1);                      // GPU 1 is up
    s.set_open_allowed(1, true);
    auto p = s.pick();
    CHECK((p.kind == Kind::Reuse && p.gpu == 1));
    s.take_idle(1);
    p = s.pick();
    CHECK((p.kind == Kind::Open && p.gpu == 1));
    s.open(1);
    s.open_failed(1);
    CHECK(s.opened(1) == 1);
    CHECK(s.opened_total() == 3);
    s.set_open_allowed(1, false);  // say it failed for good
    CHECK(s.pick().kind == Kind::Wait);
    CHECK_THROWS_AS(s.take_idle(0), std::logic_error);
    CHECK_THROWS_AS(SessionScheduler(1, 1, 1).give_back(0), std::logic_error);
}
