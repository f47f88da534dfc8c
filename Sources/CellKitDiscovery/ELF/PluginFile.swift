// What one file on the search path holds, read from its ELF symbols alone.

import CCellKit
import CellKitModel
import Foundation

// MARK: - Records

/// A plugin's descriptor, read from the file's `cellkit_plugin` symbol.
public struct PluginDescriptor: Sendable, Equatable, Codable {
    /// The plugin's name, as given to `CK_PLUGIN`: never empty, at most 63 bytes.
    public let name: String
    /// The plugin's own version text, as given to `CK_PLUGIN`; may be empty.
    public let version: String
    /// The one-line description given to `CK_PLUGIN`; may be empty.
    public let summary: String
    /// The `CK_ABI_MAJOR` the plugin was built with; must equal the host's.
    public let abiMajor: Int
    /// The `CK_ABI_MINOR` the plugin was built with; must not exceed the host's.
    public let abiMinor: Int
    /// "1.0"
    public var abi: String { "\(abiMajor).\(abiMinor)" }
}

/// One hook a plugin exports.
public struct HookDeclaration: Sendable, Equatable, Codable {
    /// Which hook it is (a row of the hook table).
    public let kind: HookKind
    /// The exported function's name, e.g. `initCellForFoobar`.
    public let symbol: String
    /// The parameters and result: from its `cellkit_signature_<hook>` symbol, else the standard one.
    package let signature: HookSignature
    /// True when the hook is called through libffi: its signature is not `(cell, indexPath)`, and its
    /// parameters take more than six argument words (`indexPath` two, the others one each).
    package var usesFFI: Bool { !signature.isStandard(for: kind) && !signature.fitsInRegisters }
}

/// A cell type a plugin offers: an identifier and its hooks, in HookKind order.
public struct CellTypeDeclaration: Sendable, Equatable, Codable {
    /// The identifier the hooks' names end in.
    public let identifier: CellIdentifier
    /// The hooks exported for it, each kind at most once: at least one that registers the type
    /// (`initCell` or `customizeCell`).
    public let hooks: [HookDeclaration]
    /// The hook of `kind`, or nil if the plugin does not export one.
    public func hook(_ kind: HookKind) -> HookDeclaration? { hooks.first { $0.kind == kind } }
}

/// A CellKit plugin file: its descriptor, cell types, and anything wrong with it.
public struct PluginFile: Sendable, Codable {
    /// Absolute path, as found on the search path.
    public let path: String
    /// What its `cellkit_plugin` symbol says.
    public let descriptor: PluginDescriptor
    /// The cell types it offers, sorted by identifier; listed even when the plugin is unusable.
    public let cellTypes: [CellTypeDeclaration]
    /// Reasons the plugin cannot be used (ABI mismatch, bad signature, no hooks). Empty when usable.
    public internal(set) var problems: [String]
    /// Symbols that miss the naming rule by a little; the plugin is still usable.
    ///
    /// Diagnosed only when something asks: discovery for a render leaves them out (reading every
    /// plugin's symbols for them was dear with Swift plugins, whose names are demangled:
    /// BENCHMARKS.md, "Measurements behind the code": NearMiss.onDemand), so for a record from
    /// such a catalog this reads the file again. `cellkit list` and `inspect`
    /// diagnose through the catalog, which keeps the answer in the registry cache.
    public var nearMisses: [NearMiss] { knownNearMisses ?? NearMiss.diagnose(path: path) }
    /// The near misses, if they were diagnosed (by `read(path:)`, by a catalog that was asked for
    /// them, or read from the registry cache); nil if not yet.
    package var knownNearMisses: [NearMiss]?
    /// Whether the registry may load it: true when `problems` is empty.
    public var isUsable: Bool { problems.isEmpty }

    enum CodingKeys: String, CodingKey {
        case path, descriptor, cellTypes, problems
        case knownNearMisses = "nearMisses"
    }

    /// This record with a problem added if the file or its folder is writable by
    /// others or owned by someone else (the loader refuses those).
    package func checkingPermissions() -> PluginFile {
        var copy = self
        if let problem = FileTrust.problem(forPlugin: path) {
            copy.problems.append(problem.path == path ? problem.reason : "\(problem.path): \(problem.reason)")
        }
        return copy
    }
}

/// Why a file on the search path is not a plugin at all.
public struct Rejection: Error, Sendable, Equatable, Codable, CustomStringConvertible {
    /// The file, or the folder on the search path, as found.
    public let path: String
    /// One line saying why, with the fix when there is one (such as the `chmod` to run).
    public let reason: String
    /// `path: reason`, on one line.
    public var description: String { "\(path): \(reason)" }
}

/// A one-line reason, written as a string literal.
package struct Reason: Error, ExpressibleByStringInterpolation {
    package let text: String
    package init(_ text: String) { self.text = text }
    package init(stringLiteral text: String) { self.text = text }
    package init(stringInterpolation: DefaultStringInterpolation) {
        text = String(stringInterpolation: stringInterpolation)
    }
}

// MARK: - Reading a file

extension PluginFile {
    /// The host's ABI version, which plugins are checked against.
    package static let hostABI = (major: Int(CK_ABI_MAJOR), minor: Int(CK_ABI_MINOR))

    /// Why a shared library that exports neither a descriptor nor a hook is skipped: an
    /// ordinary library, not a plugin.
    package static let notAPluginReason =
        "a shared library, but not a CellKit plugin: it exports no '\(CK_DESCRIPTOR_SYMBOL)' descriptor"

    /// Reads the file at `path`: a plugin record, or why it is not one. Never runs its code.
    /// Its near misses are diagnosed too.
    package static func read(path: String) -> Result<PluginFile, Rejection> {
        examine(path: path, diagnosing: true).outcome
    }

    /// `read(path:)`, also saying whether the outcome was learned from the file's bytes (and
    /// so may be cached under the file's identity) rather than from its state (missing,
    /// unreadable, not a regular file, over the size limit), which can change without the
    /// file's contents changing. Near misses are diagnosed only if `diagnosing`.
    static func examine(path: String, diagnosing: Bool) -> (outcome: Result<PluginFile, Rejection>, fromContents: Bool)
    {
        let bytes: Data
        switch readFile(path) {
        case .success(let data): bytes = data
        case .failure(let reason): return (.failure(Rejection(path: path, reason: reason.text)), false)
        }
        let image: ELFImage
        do { image = try ELFImage(bytes: bytes) } catch {
            return (.failure(Rejection(path: path, reason: error.description)), true)
        }
        return (
            read(image: image, path: path, diagnosing: diagnosing).mapError { Rejection(path: path, reason: $0.text) },
            true
        )
    }

    static func read(image: ELFImage, path: String, diagnosing: Bool) -> Result<PluginFile, Reason> {
        let exported = image.dynamicSymbols.filter(\.isExported)
        guard let symbol = exported.first(where: { $0.name == CK_DESCRIPTOR_SYMBOL && $0.kind == .object }) else {
            let hooks = exported.filter { HookKind.parse(symbol: $0.name) != nil }.map(\.name)
            return .failure(
                hooks.isEmpty
                    ? Reason(notAPluginReason)
                    : "exports hooks (\(hooks.prefix(3).joined(separator: ", "))) but no '\(CK_DESCRIPTOR_SYMBOL)' descriptor; add CK_PLUGIN(name, version, description)"
            )
        }
        let descriptor: PluginDescriptor
        switch decodeDescriptor(image.contents(of: symbol, atMost: MemoryLayout<ck_plugin_descriptor>.size)) {
        case .success(let d): descriptor = d
        case .failure(let reason): return .failure(reason)
        }
        let declared = declarations(in: exported, image: image)
        var problems = abiProblems(descriptor) + declared.problems
        if declared.types.isEmpty, problems.isEmpty {
            problems.append("exports no usable cell type: each needs \(HookKind.registeringNames("<Id>"))")
        }
        return .success(
            PluginFile(
                path: path, descriptor: descriptor, cellTypes: declared.types, problems: problems,
                knownNearMisses: diagnosing ? NearMiss.find(in: image, declared) : nil))
    }

    // MARK: Descriptor

    /// Decodes the 272 plain bytes of a ck_plugin_descriptor.
    package static func decodeDescriptor(_ bytes: Data?) -> Result<PluginDescriptor, Reason> {
        let size = MemoryLayout<ck_plugin_descriptor>.size
        guard let bytes, bytes.count >= size else {
            return .failure(
                "its '\(CK_DESCRIPTOR_SYMBOL)' symbol is not a \(size)-byte descriptor stored in the file; declare it with CK_PLUGIN(...)"
            )
        }
        guard bytes.prefix(8).elementsEqual("CKPLUGIN".utf8) else {
            return .failure(
                "its '\(CK_DESCRIPTOR_SYMBOL)' descriptor lacks the CKPLUGIN magic; declare it with CK_PLUGIN(...)")
        }
        func field(_ offset: Int, _ length: Int) -> String? {
            let slice = bytes.dropFirst(offset).prefix(length)
            guard let end = slice.firstIndex(of: 0) else { return nil }
            return String(validating: slice[slice.startIndex..<end], as: UTF8.self)
        }
        func u32(_ offset: Int) -> Int {
            Int(
                bytes.withUnsafeBytes {
                    UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
                })
        }
        guard let name = field(16, 64), let version = field(80, 32), let summary = field(112, 160) else {
            return .failure("its descriptor has a name, version or description that is not NUL-terminated UTF-8")
        }
        guard !name.isEmpty else { return .failure("its descriptor has an empty name") }
        return .success(
            PluginDescriptor(name: name, version: version, summary: summary, abiMajor: u32(8), abiMinor: u32(12)))
    }

    /// The ABI rule: the major must equal the host's; the minor must not exceed it.
    package static func abiProblems(_ d: PluginDescriptor) -> [String] {
        let host = "\(hostABI.major).\(hostABI.minor)"
        if d.abiMajor != hostABI.major {
            return [
                "built for CellKit ABI \(d.abi), this host speaks ABI \(host): the major versions differ; rebuild the plugin against this host's cellkit.h"
            ]
        }
        if d.abiMinor > hostABI.minor {
            return [
                "built for CellKit ABI \(d.abi), newer than this host's ABI \(host); update the host or rebuild the plugin against its cellkit.h"
            ]
        }
        return []
    }

    // MARK: Hooks

    /// What a file's exported symbols declare.
    struct Declarations {
        var types: [CellTypeDeclaration] = []
        /// Types with no hook that registers a type (init or customize): reported, not registered.
        var incomplete: [CellTypeDeclaration] = []
        var problems: [String] = []
        /// Hooks with a signature but no function (usually a missing `public`).
        var strayHooks: [String] = []
    }

    /// The longest signature text read from a `cellkit_signature_<hook>` symbol, in bytes
    /// without its NUL: 256 (the longest valid one, every parameter once, is under 70).
    static let maxSignatureBytes = 256

    /// Groups exported hook functions by identifier and attaches their declared signatures.
    static func declarations(in exported: [ELFSymbol], image: ELFImage) -> Declarations {
        var result = Declarations()
        var signatures: [String: String] = [:]
        // Every problem with a declared signature starts `hook <symbol>: `, and only those do:
        // `cellkit inspect` shows no signature for such a hook (Output.hookLines).
        for s in exported where s.kind == .object && s.name.hasPrefix(CK_SIGNATURE_PREFIX) {
            let hook = String(s.name.dropFirst(CK_SIGNATURE_PREFIX.utf8.count))
            let bytes = image.contents(of: s, atMost: maxSignatureBytes + 1)
            guard let bytes, let end = bytes.firstIndex(of: 0),
                let text = String(validating: bytes[bytes.startIndex..<end], as: UTF8.self)
            else {
                result.problems.append(
                    bytes?.count == maxSignatureBytes + 1 && !bytes!.contains(0)
                        ? "hook \(hook): its signature \(s.name) is longer than the limit of \(maxSignatureBytes) bytes; write it like \"void (cell, row)\""
                        : "hook \(hook): its signature \(s.name) is not a NUL-terminated UTF-8 string in the file")
                continue
            }
            signatures[hook] = text
        }
        var byIdentifier: [CellIdentifier: [HookDeclaration]] = [:]
        for s in exported where s.kind == .function {
            guard let (kind, identifier) = HookKind.parse(symbol: s.name) else { continue }
            var signature = HookSignature.standard(for: kind)
            if let text = signatures.removeValue(forKey: s.name) {
                do { signature = try HookSignature(parsing: text, for: kind) } catch {
                    result.problems.append("hook \(s.name): signature \"\(text.debugDescriptionEscaped)\": \(error)")
                }
            }
            byIdentifier[identifier, default: []].append(
                HookDeclaration(kind: kind, symbol: s.name, signature: signature))
        }
        result.strayHooks = signatures.keys.sorted()
        let order = Dictionary(uniqueKeysWithValues: HookKind.allCases.enumerated().map { ($1, $0) })
        for id in byIdentifier.keys.sorted() {
            let type = CellTypeDeclaration(
                identifier: id, hooks: byIdentifier[id]!.sorted { order[$0.kind]! < order[$1.kind]! })
            if !type.hooks.contains(where: \.kind.row.registersType) {
                result.incomplete.append(type)
            } else {
                result.types.append(type)
            }
        }
        return result
    }

    // MARK: The file itself

    /// The file's bytes, or a one-line reason it cannot be read as a library.
    static func readFile(_ path: String) -> Result<Data, Reason> {
        let fd: Int32
        switch openFile(path) {
        case .failure(let reason): return .failure(reason)
        case .success(let opened): fd = opened
        }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        do {
            // One byte more than the limit: a file that grew since the stat is caught too.
            let data = try handle.read(upToCount: ELFLimits.maxFileBytes + 1) ?? Data()
            if let tooLarge = oversize(Int64(data.count)) { return .failure(tooLarge) }
            return .success(data)
        } catch {
            return .failure("unreadable: \(error.localizedDescription)")
        }
    }

    /// The file opened for reading (the caller closes it), or a one-line reason it cannot be read
    /// as a library: a regular file (checked again once open), not empty, at most
    /// `ELFLimits.maxFileBytes` when opened.
    static func openFile(_ path: String) -> Result<Int32, Reason> {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let e = errno
            if e == ELOOP { return .failure("a symbolic link loop") }
            if e == ENOENT, (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil {
                return .failure("a dangling symbolic link")
            }
            return .failure("cannot be examined: \(String(cString: strerror(e)))")
        }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure("a directory named like a library") }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure("not a regular file") }
        guard info.st_size > 0 else { return .failure(Reason(ELFProblem.empty.description)) }
        if let tooLarge = oversize(Int64(info.st_size)) { return .failure(tooLarge) }
        // O_NONBLOCK: a file swapped for a FIFO after the stat above cannot stall discovery;
        // fstat then checks what was actually opened.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure("unreadable: \(String(cString: strerror(errno)))") }
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .failure("not a regular file (it changed while being read)")
        }
        return .success(fd)
    }

    /// The reason a file of `size` bytes is not read, if it is over `ELFLimits.maxFileBytes`.
    private static func oversize(_ size: Int64) -> Reason? {
        guard size > Int64(ELFLimits.maxFileBytes) else { return nil }
        let limit = ELFLimits.maxFileBytes
        return Reason(
            ELFProblem.overLimit(
                "the file has \(size > Int64(limit) + 1 ? "\(size)" : "more than \(limit)") bytes, over the limit of \(limit)"
            ).description)
    }
}
