import CCellKit
import CellKitModel
import CellKitTestSupport
import Foundation
import Testing

@testable import CellKitRuntime

/// Starts a thread in customize that calls the host, and waits for it.
let threadPlugin = """
    #include <pthread.h>
    #include <string.h>
    #include "cellkit.h"
    CK_PLUGIN("Threads", "1.0.0", "calls the host from a thread of its own");
    CK_EXPORT int set_text_status = -1, set_int_status = -1, set_frame_status = -1, data_status = -1;
    CK_EXPORT int part_is_null = -1, subview_is_null = -1, own_thread_status = -1;
    CK_EXPORT char thread_error[512];

    static ck_cell *shared_cell;
    static ck_view *shared_label;

    static void *rogue(void *unused) {
        (void)unused;
        ck_cell *c = shared_cell;
        set_text_status = ck_set_text(shared_label, "from another thread");
        set_int_status = c->host->cell_set_int(c, CK_CELL_INDENTATION_LEVEL, 3);
        set_frame_status = shared_label->host->view_set_frame(shared_label, (ck_rect){1, 1, 5, 1});
        const char *s = NULL;
        data_status = c->host->data_string(c->host->row_data(c), "name", &s);
        part_is_null = c->host->cell_part(c, CK_PART_DETAIL_TEXT_LABEL) == NULL;
        subview_is_null = c->host->add_subview(c, CK_VIEW_PLAIN, (ck_rect){0, 0, 1, 1}, 7) == NULL;
        const char *why = c->host->last_error(c);
        strncpy(thread_error, why ? why : "(null)", sizeof thread_error - 1);
        return NULL;
    }

    CK_EXPORT void customizeCellForThreaded(ck_cell *cell, ck_index_path ip) {
        (void)ip;
        shared_cell = cell;
        shared_label = ck_text_label(cell);
        ck_set_text(shared_label, "from the hook");
        pthread_t t;
        if (pthread_create(&t, NULL, rogue, NULL) == 0) pthread_join(t, NULL);
        /* the hook's own thread is still served */
        own_thread_status = cell->host->cell_set_int(cell, CK_CELL_INDENTATION_LEVEL, 1);
    }
    """

@Suite("Host calls from a plugin's own threads")
struct HostThreadTests {
    @Test("A host call from a thread the plugin started is refused with CK_ERR_WRONG_THREAD; the cell is unchanged")
    func wrongThread() throws {
        let dir = try Fixtures.folder("threads")
        let library = try Fixtures.compileC(threadPlugin, name: "threads", in: dir, extraFlags: ["-pthread"])
        let queue = CellQueue(registry: Fixtures.registry([dir]))
        let type = try queue.registry.cellType(named: "Threaded")
        func count(_ name: String) -> Int32 { Fixtures.counter(name, in: library) }

        let cell = queue.dequeueCell(type, at: IndexPath(section: 0, row: 0), data: .object(["name": .string("x")]))
        let wrong = Int32(CK_ERR_WRONG_THREAD.rawValue)
        #expect(count("set_text_status") == wrong)
        #expect(count("set_int_status") == wrong)
        #expect(count("set_frame_status") == wrong)
        #expect(count("data_status") == wrong)
        #expect(count("part_is_null") == 1)
        #expect(count("subview_is_null") == 1)
        #expect(count("own_thread_status") == Int32(CK_OK.rawValue))
        let message = try #require(
            dlopen(library, RTLD_NOW | RTLD_NOLOAD).flatMap { dlsym($0, "thread_error") }
                .map { String(cString: $0.assumingMemoryBound(to: CChar.self)) })
        #expect(message == String(cString: HostThread.wrongThreadMessage))
        #expect(message.hasPrefix("CK_ERR_WRONG_THREAD: "))

        // Nothing the other thread asked for happened.
        #expect(cell.textLabel.text == "from the hook")
        #expect(cell.textLabel.frame == .zero)
        #expect(cell.indentationLevel == 1)
        #expect(cell.subviews.isEmpty)
        #expect(cell.lastError == nil)

        // A cell reused for the next row is served again on the hook's thread.
        queue.recycle(cell)
        let again = queue.dequeueCell(type, at: IndexPath(section: 0, row: 1))
        #expect(again === cell)
        #expect(again.textLabel.text == "from the hook")
        #expect(count("own_thread_status") == Int32(CK_OK.rawValue))
    }

    @Test("A queue used from another thread later serves hooks on that thread")
    func queueMovesBetweenThreads() throws {
        let dir = try Fixtures.folder("threadsmove")
        try Fixtures.compileC(countingPlugin, name: "counting", in: dir)
        nonisolated(unsafe) let queue = CellQueue(registry: Fixtures.registry([dir]))
        let type = try queue.registry.cellType(named: "Counted")
        let first = queue.dequeueCell(type, at: IndexPath(section: 0, row: 0))
        #expect(first.textLabel.text?.hasPrefix("row 0") == true)
        queue.recycle(first)
        let text = Thread.detachAndWait {
            let cell = queue.dequeueCell(type, at: IndexPath(section: 0, row: 1))
            defer { queue.recycle(cell) }
            return cell.textLabel.text
        }
        #expect(text?.hasPrefix("row 1") == true)
    }
}

extension Thread {
    /// Runs `body` on a new thread and waits for its result.
    static func detachAndWait<T>(_ body: @escaping () -> T) -> T {
        nonisolated(unsafe) var result: T?
        nonisolated(unsafe) let body = body
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return result!
    }
}
