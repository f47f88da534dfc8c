// The ordinary work a plugin does, gathered in one cell type, for Scripts/sandbox-calls.sh: the
// system calls a sandboxed worker makes while it runs are what the allowlist filter is built from
// (Sources/CSandbox/sandbox.c). Each hook does what real plugins were seen doing: threads and
// their locks, a sleep, random numbers, its own data file and folder, big allocations, the
// clock and time zone, the C and C++ output streams, the processor count, a named thread, a
// system library loaded late, a locale, another thread named, a thread's own /proc status (as
// libdispatch's pool monitor reads it), Dispatch's thread pool (as a Swift plugin's
// concurrency uses), and a thread's heap that grows and shrinks (the C library's allocator then
// reads /proc/sys/vm/overcommit_memory, as the worker's own threads do in a long render).
//
//     c++ -std=c++17 -shared -fPIC -I Sources/CCellKit/include WorkloadCells.cpp -o libWorkloadCells.so
#include <dlfcn.h>
#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <clocale>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "cellkit.h"

CK_PLUGIN("WorkloadCells", "1.0.0", "What plugins do, measured for the sandbox's allowlist");

namespace {

std::string folder_of_this_library() {
    Dl_info info{};
    if (!dladdr(reinterpret_cast<void *>(&folder_of_this_library), &info) || !info.dli_fname) return ".";
    return std::filesystem::path(info.dli_fname).parent_path().string();
}

/// Threads, a lock, a condition with a deadline, a future and a short sleep.
long threads_and_locks() {
    std::mutex lock;
    std::condition_variable ready;
    std::atomic<long> sum{0};
    bool go = false;
    std::vector<std::thread> workers;
    for (int i = 0; i < 3; ++i)
        workers.emplace_back([&, i] {
            pthread_setname_np(pthread_self(), "workload");
            std::unique_lock<std::mutex> held(lock);
            ready.wait_for(held, std::chrono::milliseconds(50), [&] { return go; });
            sum += i;
        });
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    {
        std::lock_guard<std::mutex> held(lock);
        go = true;
    }
    ready.notify_all();
    pthread_setname_np(workers[0].native_handle(), "named");  // another thread: through /proc
    for (auto &worker : workers) worker.join();
    auto later = std::async(std::launch::async, [] { return 7L; });
    return sum + later.get();
}

/// Its own data file and folder, read as a plugin that ships data does.
size_t own_data() {
    std::string folder = folder_of_this_library();
    std::ifstream file(folder + "/workload.txt");
    std::string line;
    std::getline(file, line);
    size_t entries = 0;
    std::error_code error;
    for (auto it = std::filesystem::directory_iterator(folder, error); !error && it != std::filesystem::directory_iterator();
         it.increment(error))
        entries += it->is_regular_file(error) ? 1 : 0;
    return line.size() + entries;
}

/// A thread's own status, read as libdispatch's pool monitor reads it every second while work
/// waits (/proc/<tid>/stat: it ends the process when the open fails). 1 when read.
long thread_status() {
    long read = 0;
    std::thread reader([&] {
        std::ifstream stat("/proc/" + std::to_string(gettid()) + "/stat");
        std::string fields;
        read = std::getline(stat, fields) && !fields.empty() ? 1 : 0;
    });
    reader.join();
    return read;
}

/// A thread's heap grown by small allocations and given back: the C library shrinks the thread's
/// arena, and the first shrink in a process reads /proc/sys/vm/overcommit_memory. 1 when done.
long thread_heap() {
    long done = 0;
    std::thread worker([&] {
        std::vector<void *> pieces;
        for (int i = 0; i < 64; i++) pieces.push_back(std::malloc(16 << 10));  // under the mmap threshold
        for (auto piece = pieces.rbegin(); piece != pieces.rend(); ++piece) std::free(*piece);
        done = 1;
    });
    worker.join();
    return done;
}

/// Dispatch's thread pool, when the process has Dispatch (a Swift host does).
void dispatch_pool() {
    void *dispatch = dlopen("libdispatch.so", RTLD_NOW | RTLD_NOLOAD);
    if (!dispatch) return;
    using apply_f = void (*)(size_t, void *, void *, void (*)(void *, size_t));
    auto apply = reinterpret_cast<apply_f>(dlsym(dispatch, "dispatch_apply_f"));
    static std::atomic<size_t> done{0};
    if (apply) apply(64, nullptr, nullptr, [](void *, size_t) { done++; });
}

}  // namespace

CK_EXPORT void initCellForWorkload(ck_cell *cell, ck_index_path indexPath) {
    (void)indexPath;
    cell->host->cell_set_int(cell, CK_CELL_STYLE, CK_STYLE_VALUE1);
    std::vector<char> big(64 << 20, 1);  // mapped and unmapped, not from the heap
    std::random_device device;
    std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    std::setlocale(LC_ALL, "C.UTF-8");  // reads the locale aliases
    std::setlocale(LC_ALL, "C");
    void *math = dlopen("libm.so.6", RTLD_NOW);
    if (math) dlclose(math);
    std::fprintf(stdout, "workload: %ld processors, %d\n", processors, big[4096] + local.tm_isdst);
    std::cerr << "workload: random " << (device() & 1) << std::endl;
}

CK_SIGNATURE(customizeCellForWorkload, "void (cell, row, data)");
CK_EXPORT void customizeCellForWorkload(ck_cell *cell, int64_t row, const ck_data *data) {
    (void)data;
    long work = 0;
    try {
        work = threads_and_locks() + static_cast<long>(own_data());
        if (thread_status() != 1) work = -2;  // a thread could not read its own status
        if (thread_heap() != 1) work = -3;
        dispatch_pool();
    } catch (...) {
        work = -1;
    }
    ck_set_text(ck_text_label(cell), ("Workload " + std::to_string(row)).c_str());
    ck_set_text(ck_detail_text_label(cell), std::to_string(work).c_str());
}
