// Why a placeholder row is one: the fault a supervisor saw (plugin file, hook, cell
// type, signal or exit status or timeout), recorded in the next worker's plan and
// carried on each placeholder row it draws (`RowLayout.fault`), so that the JSON
// formats can tell a tool what the text formats tell a reader.

import CellKitRuntime
import Foundation

/// The fault behind a placeholder row, as the supervisor recorded it.
package struct RowFault: Sendable, Codable, Equatable {
    /// The plugin's file name (`libcrashy.so`); nil when the render faulted outside plugin code.
    package var plugin: String?
    /// The hook that was running (`customizeCellForCrashy`), `constructor` or `cellkit_plugin_init`
    /// for a fault while the plugin loaded; nil outside plugin code.
    package var hook: String?
    /// The cell type whose hook (or whose plugin's loading) faulted.
    package var identifier: String?
    /// How it ended: `signal`, `exit`, `timeout` or `channel`.
    package var outcome: String
    /// The signal's name (`SIGSEGV`, or `signal N`) when `outcome` is `signal`.
    package var signal: String?
    /// The signal's number when `outcome` is `signal`.
    package var signalNumber: Int?
    /// The exit status when `outcome` is `exit`.
    package var exitStatus: Int?
    /// The hook timeout, in seconds, when `outcome` is `timeout`.
    package var timeoutSeconds: Double?
    /// The line printed on standard error for the fault.
    package var message: String
    /// For a fault outside plugin code: the row (counted in the window) it fell on, drawn as a placeholder.
    package var windowRow: Int?

    /// A fault known only by its message (a placeholder with no record).
    package init(message: String) {
        (outcome, self.message) = ("unknown", message)
    }

    /// The fault `record` shows for `outcome`, with `line` (what was reported); `blamed`: the
    /// library a crash was placed in, when it is not the running hook's.
    package init(
        record: UnsafePointer<HookProgress.Header>, outcome: FaultOutcome, line: String, blamed: String?
    ) {
        message = line
        self.outcome = "unknown"
        let header = record.pointee
        let phase = header.helperFault != 0 ? .host : HookProgress.Phase(rawValue: header.phase) ?? .host
        switch phase {
        case .hook:
            let slot = Int(header.typeSlot)
            identifier = HookProgress.identifier(record, slot: slot)
            plugin = HookProgress.pluginFile(record, slot: slot)
            hook = FaultLine.prefix(header.hook) + (identifier ?? "")
        case .constructor, .pluginInit:
            identifier = HookProgress.loadingIdentifier(record)
            plugin = HookProgress.loadingFile(record)
            hook = phase == .constructor ? "constructor" : "cellkit_plugin_init"
        case .host:
            windowRow = Int(header.rowsDone)
        }
        if let blamed { plugin = blamed }
        switch outcome {
        case .signal(let number):
            self.outcome = "signal"
            let name = FaultLine.signalName(number)
            signal = name.utf8CodeUnitCount > 0 ? "\(name)" : "signal \(number)"
            signalNumber = Int(number)
        case .exit(let status):
            self.outcome = "exit"
            exitStatus = Int(status)
        case .timeout(let tenths):
            self.outcome = "timeout"
            timeoutSeconds = Double(tenths) / 10
        case .channel:
            self.outcome = "channel"
        case .refused:
            self.outcome = "refused"
        }
    }

    /// The fault that quarantined cell type `identifier` (of plugin file `file`, when known): one
    /// recorded for the type itself, else one recorded against its plugin file.
    package static func find(in faults: [RowFault], identifier: String, file: String?) -> RowFault? {
        faults.last { $0.identifier == identifier && $0.windowRow == nil }
            ?? file.flatMap { file in faults.last { $0.plugin == file && $0.windowRow == nil } }
    }
}
