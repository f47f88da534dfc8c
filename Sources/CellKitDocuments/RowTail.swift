// A JSON Lines file's last records found by reading back from its end, block by block, without
// counting the rows before them (`cellkit browse`: End before the count is done). Only where each
// record starts is found: the rows themselves are read forward from there by a `RowStream`.
// CSV is not read back: a quoted field may hold a newline, and only a pass from the start tells
// whether a line end is inside quotes.

import Foundation

/// Where a JSON Lines file's records start, found from its end backwards: blank lines (spaces,
/// tabs, CR) skipped, a last line without a line end counted, CR LF and CR-only files read as
/// `RowStream` reads them. The file is read up to its size when opened. Use it from one thread.
package final class RowTail {
    /// The file read.
    package let file: DataFile
    /// The file's size when opened: the records found are those before it.
    package let size: Int
    /// Whether the first record of the file has been found: there are none before the ones returned.
    package private(set) var reachedStart = false

    private let fd: Int32
    private let blockSize: Int
    private let lineEnd: UInt8
    /// Bytes at or after `position` have been looked at; the line being scanned back ends before
    /// `lineStop` and has something other than blanks in it when `lineHasText`.
    private var position: Int
    private var lineHasText = false

    /// Opens `file` (JSON Lines) to read it back from its end in blocks of `blockSize` bytes.
    package init(_ file: DataFile, blockSize: Int = 64 << 10) throws(DocumentError) {
        precondition(file.format == .jsonLines, "CSV is read forward only: quoted fields may hold newlines")
        self.file = file
        self.blockSize = max(1, blockSize)
        // The stream finds the line end (LF, or CR in a CR-only file) as a forward read does.
        lineEnd = try RowStream(file).lineEndByte
        do throws(FileProblem) { fd = try FileAccess.openRegular(file.real, name: file.path) } catch {
            throw file.mark.error("cannot open the data file: \(error.message)")
        }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            close(fd)
            throw file.mark.error("cannot read the data file's size: \(String(cString: strerror(errno)))")
        }
        size = Int(status.st_size)
        position = size
        reachedStart = size == 0
    }

    deinit { close(fd) }

    /// The byte offsets, in file order, of up to `count` records before those returned so far (the
    /// file's last ones the first time); fewer, and `reachedStart` set, when the file starts first.
    package func previous(_ count: Int) throws(DocumentError) -> [Int] {
        var found: [Int] = []
        guard count > 0 else { return [] }
        let block = UnsafeMutablePointer<UInt8>.allocate(capacity: blockSize)
        defer { block.deallocate() }
        while found.count < count, !reachedStart {
            let from = max(0, position - blockSize)
            let length = position - from
            try read(block, at: from, length)
            var i = length - 1
            while i >= 0, found.count < count {
                let b = block[i]
                if b == lineEnd {
                    if lineHasText { found.append(from + i + 1) }
                    lineHasText = false
                } else if b != 0x20, b != 0x09, b != 0x0D {
                    lineHasText = true
                }
                i -= 1
            }
            position = from + i + 1
            if position == 0, found.count < count {
                if lineHasText { found.append(0) }
                lineHasText = false
                reachedStart = true
            }
        }
        return found.reversed()
    }

    /// Reads `length` bytes at `offset` into `block`, whole.
    private func read(_ block: UnsafeMutablePointer<UInt8>, at offset: Int, _ length: Int) throws(DocumentError) {
        var done = 0
        while done < length {
            let n = pread(fd, block + done, length - done, off_t(offset + done))
            if n < 0, errno == EINTR { continue }
            guard n > 0 else {
                let why = n == 0 ? "it became shorter while read" : String(cString: strerror(errno))
                throw file.mark.error("cannot read the data file \(file.path) back from its end: \(why)")
            }
            done += n
        }
    }
}
