// Output worked out from a catalog alone (`cellkit list`'s text and JSON), kept beside the
// registry cache and given back while what it came from is unchanged, as man keeps formatted
// pages. What it comes from is digested as discovery walks (`InputDigest`): each plugin file's
// path and key (device, inode, size, modification and change times: the registry cache's test
// of "the same file"), the rejections with their reasons, the search path, and the running
// executable (a rebuilt `cellkit` may word its output otherwise). Decoding every plugin's
// record and writing its lines on every `cellkit list` cost far more than the digest and the
// check of the kept text, its hash and each line (BENCHMARKS.md, "Measurements behind the
// code": DerivedOutput).

import CellKit
import CellKitModel
import Foundation

extension Catalog {
    /// The largest derived output kept, in bytes: 64 MiB (the registry cache's own limit); a
    /// larger one is worked out on every run.
    package static let maxDerivedOutputBytes = RegistryCache.maxFileBytes

    /// How many derived files of one name are kept, for as many search paths: the ones written
    /// last. A `cellkit list` run with another `--plugin-path` then does not replace the usual one.
    package static let derivedOutputsKept = 8

    /// The output `make` works out from this catalog alone, kept in the registry cache's folder
    /// as the file `name.<hash of the search path>` and given back from there while this
    /// catalog's inputs and the running executable are what they were when it was kept, and
    /// `isIntact` accepts what the file holds (a file others changed is worked out again and
    /// rewritten). Only a catalog made with `digestingInputs` keeps anything; any other works
    /// its output out each time. With the cache off (`useCache` false) nothing is read or written; with
    /// `rebuildCache` nothing is read, and the file is written anew where the registry cache
    /// file is (as that file is rewritten).
    package func derivedOutput(
        _ name: String, isIntact: ([UInt8]) -> Bool, make: () throws -> [UInt8]
    ) rethrows -> [UInt8] {
        let folder = options.resolvedCacheFolder
        var question = InputDigest()
        for path in options.searchPath.describedPaths { question.add(path) }
        let file = name + "." + Hash64.hex(question.value!)
        let rebuilding =
            options.rebuildCache && FileManager.default.fileExists(atPath: folder + "/" + RegistryCache.fileName)
        guard options.useCache || rebuilding, let digest = derivedDigest(name) else {
            if options.rebuildCache { unlink(folder + "/" + file) }  // nothing to key it by: none kept
            return try make()
        }
        // The first line: the name, the digest, and the body's own hash (a file cut short or
        // damaged is worked out again, not shown in part).
        let prefix = Array("cellkit derived output \(name) \(Hash64.hex(digest)) ".utf8), lineEnd = prefix.count + 17
        if options.useCache, let kept = Self.readOwnFile(folder + "/" + file, limit: Self.maxDerivedOutputBytes),
            kept.count >= lineEnd, kept.starts(with: prefix), kept[lineEnd - 1] == 0x0A
        {
            let body = Array(kept[lineEnd...])
            if kept[prefix.count..<lineEnd - 1].elementsEqual(Self.bodyHash(body).utf8), isIntact(body) { return body }
        }
        let made = try make()
        if lineEnd + made.count <= Self.maxDerivedOutputBytes,
            RegistryCache.write(prefix + Array((Self.bodyHash(made) + "\n").utf8) + made, named: file, in: folder)
        {
            Self.removeOldDerivedOutputs(name, in: folder)
        }
        return made
    }

    /// Removes the files of derived output `name` in `folder` but the `derivedOutputsKept` written last.
    private static func removeOldDerivedOutputs(_ name: String, in folder: String) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        let written = names.filter { $0.hasPrefix(name + ".") }.compactMap { file -> (String, Int64)? in
            var info = stat()
            guard lstat(folder + "/" + file, &info) == 0 else { return nil }
            return (file, Int64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(info.st_mtim.tv_nsec))
        }
        for (file, _) in written.sorted(by: { $0.1 > $1.1 }).dropFirst(derivedOutputsKept) {
            unlink(folder + "/" + file)
        }
    }

    /// The hash of a derived output's body, as its first line gives it.
    private static func bodyHash(_ body: [UInt8]) -> String {
        Hash64.hex(body.withUnsafeBufferPointer { Hash64.of($0, seed: 0x626F_6479) })
    }

    /// The digest that keys `name`: this catalog's inputs and the running executable's file key.
    private func derivedDigest(_ name: String) -> UInt64? {
        guard let executable = RegistryCache.FileKey(path: "/proc/self/exe") else { return nil }
        var digest = inputs
        digest.add(name)
        digest.add(path: UnsafeBufferPointer(start: nil, count: 0), key: executable)
        return digest.value
    }

    /// The whole file at `path` if `RegistryCache.openOwnFile` opens it (ours, safe, at most
    /// `limit` bytes); else nil.
    private static func readOwnFile(_ path: String, limit: Int) -> [UInt8]? {
        guard let (fd, info) = RegistryCache.openOwnFile(path, limit: limit) else { return nil }
        defer { close(fd) }
        let size = Int(info.st_size)
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = read(fd, buffer.baseAddress! + done, size - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { break }
                done += n
            }
            complete = done == size
            count = complete ? size : 0
        }
        return complete ? bytes : nil
    }
}
