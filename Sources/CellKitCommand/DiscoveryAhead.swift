// Discovery (the plugin folders walked, the registry cache read) on a helper thread while the
// main thread parses the document: neither needs the other, and a small render's start waits
// for both (BENCHMARKS.md, "Measurements behind the code": DiscoveryAhead). The helper is
// joined before anything forks, so that a worker forked from this process inherits the
// catalog and the process has one thread again (`ForkedWorker.mayFork`). Nothing here loads
// a plugin: discovery reads ELF files as `cellkit list` does in this process.

import CellKit
import CellKitSupervision
import Glibc
import Synchronization

/// A catalog being discovered on a helper thread; `catalog()` joins it.
final class DiscoveryAhead {
    /// What the helper is given and leaves behind.
    private final class Work: Sendable {
        let options: DiscoveryOptions
        let found = Mutex<Catalog?>(nil)
        init(_ options: DiscoveryOptions) { self.options = options }
    }

    private let work: Work
    private var thread: pthread_t?

    /// Starts discovering with `options` on a helper thread (or, if none can start, when asked).
    init(_ options: DiscoveryOptions) {
        work = Work(options)
        let context = Unmanaged.passRetained(work).toOpaque()
        var started = pthread_t()
        let status = pthread_create(
            &started, nil,
            { context in
                let work = Unmanaged<Work>.fromOpaque(context!).takeRetainedValue()
                let catalog = Catalog(options: work.options)
                work.found.withLock { $0 = catalog }
                return nil
            }, context)
        if status == 0 {
            thread = started
        } else {
            Unmanaged<Work>.fromOpaque(context).release()
        }
    }

    deinit { join() }

    /// The catalog, once the helper has ended; discovered on this thread if no helper started.
    func catalog() -> Catalog {
        join()
        if let found = work.found.withLock({ $0 }) { return found }
        let catalog = Catalog(options: work.options)
        work.found.withLock { $0 = catalog }
        return catalog
    }

    /// Waits for the helper to end, and for the kernel to stop listing it: a thread joined a
    /// moment ago may still be listed, and a worker would then start with exec instead of fork
    /// (`ForkedWorker.awaitOneThread`).
    private func join() {
        guard let thread else { return }
        pthread_join(thread, nil)
        self.thread = nil
        ForkedWorker.awaitOneThread()
    }
}
