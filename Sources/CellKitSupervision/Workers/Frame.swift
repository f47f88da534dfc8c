// The messages between a supervisor and its worker: framed, sequenced and tagged with a
// key only the two processes were given, so that a stray byte, a forged header or a
// replayed message is a named fault and never a length the supervisor trusts. Every
// length and count is checked against a limit before it is used.

import CellKitModel

/// One message: a kind, a value (a byte count in shared memory, say) and up to
/// `maxPayload` bytes carried inline.
package struct Frame: Equatable, Sendable {
    /// What a frame says; each protocol gives the numbers their meaning.
    package var kind: UInt16
    /// A number that goes with the kind (the supervisor validates it against its own limits).
    package var value: UInt64
    /// The bytes carried after the header.
    package var payload: [UInt8]

    /// A frame of `kind` with `value` and `payload`.
    package init(kind: UInt16, value: UInt64 = 0, payload: [UInt8] = []) {
        (self.kind, self.value, self.payload) = (kind, value, payload)
    }

    /// Bytes of a header: magic, kind, reserved, sequence, payload length, value, tag.
    package static let headerSize = 32
    /// The largest payload a frame may carry (1 MiB): a longer one is a malformed frame.
    package static let maxPayload = 1 << 20
    /// The first four bytes of every frame ("CKFR").
    static let magic: UInt32 = 0x5246_4B43

    /// The frame as bytes, numbered `sequence` and tagged with `key`.
    package func encoded(sequence: UInt32, key: UInt64) -> [UInt8] {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.headerSize + payload.count)
        Self.append(Self.magic, to: &bytes)
        Self.append(kind, to: &bytes)
        Self.append(UInt16(0), to: &bytes)
        Self.append(sequence, to: &bytes)
        Self.append(UInt32(payload.count), to: &bytes)
        Self.append(value, to: &bytes)
        bytes += payload
        let tag = Self.tag(key: key, header: bytes[0..<24], payload: payload[...])
        bytes.insert(contentsOf: Self.littleEndian(tag), at: 24)
        return bytes
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        bytes += littleEndian(value)
    }

    private static func littleEndian<T: FixedWidthInteger>(_ value: T) -> [UInt8] {
        (0..<T.bitWidth / 8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }

    static func read<T: FixedWidthInteger>(_ type: T.Type, _ bytes: ArraySlice<UInt8>, at offset: Int) -> T {
        var value = T.zero
        let start = bytes.startIndex + offset
        for i in 0..<T.bitWidth / 8 { value |= T(bytes[start + i]) << (i * 8) }
        return value
    }

    /// A keyed 64-bit tag of the header's first 24 bytes and the payload (`Hash64`, seeded with
    /// the key). Not a cryptographic MAC: a plugin that reads the worker's memory can find the
    /// key; it stops blind forgery, stray bytes and replays.
    static func tag(key: UInt64, header: ArraySlice<UInt8>, payload: ArraySlice<UInt8>) -> UInt64 {
        Hash64.of(payload, seed: Hash64.of(header, seed: key))
    }
}

/// Why bytes from a worker are not a valid frame.
package enum FrameError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The first bytes are not a frame's magic number (a stray write to the channel).
    case badMagic
    /// The header says the payload is longer than `Frame.maxPayload`.
    case tooLong(Int)
    /// The frame is out of order: `expected` was due, `found` came.
    case outOfOrder(expected: UInt32, found: UInt32)
    /// The tag does not match the key: the frame was not written by the worker's own code.
    case badTag
    /// The reserved field is not zero.
    case reserved

    /// What was wrong, for the fault line.
    package var description: String {
        switch self {
        case .badMagic: "bytes that are not a CellKit message"
        case .tooLong(let n): "a message claiming \(n) bytes (the limit is \(Frame.maxPayload))"
        case .outOfOrder(let expected, let found): "message \(found) where \(expected) was due"
        case .badTag: "a message not signed with the worker's key (forged)"
        case .reserved: "a message with a reserved field set"
        }
    }
}

/// The supervisor's side: bytes in, validated frames out, in order.
package struct FrameDecoder: Sendable {
    let key: UInt64
    var next: UInt32 = 1
    var pending: [UInt8] = []
    /// Where the first byte not taken yet is in `pending` (taken bytes are dropped in bulk).
    var start = 0

    /// A decoder for frames tagged with `key`, numbered from 1.
    package init(key: UInt64) { self.key = key }

    /// Bytes of a frame that has begun but not ended (0: none pending).
    package var partialBytes: Int { pending.count - start }

    /// Bytes that arrived; frames are taken out by `nextFrame()`.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start >= pending.count / 2 {
            pending.removeFirst(start)
            start = 0
        }
        pending += bytes
    }

    /// The next whole frame, nil when more bytes are needed; throws at the first invalid one (every
    /// field is checked before the payload is read).
    package mutating func nextFrame() throws(FrameError) -> Frame? {
        let bytes = pending[start...]
        let available = bytes.count
        for i in 0..<min(4, available) where bytes[start + i] != UInt8(truncatingIfNeeded: Frame.magic >> (i * 8)) {
            throw .badMagic  // a stray byte is caught when it arrives, not when the next frame does
        }
        guard available >= Frame.headerSize else { return nil }
        guard Frame.read(UInt16.self, bytes, at: 6) == 0 else { throw .reserved }
        let sequence = Frame.read(UInt32.self, bytes, at: 8)
        let length = Int(Frame.read(UInt32.self, bytes, at: 12))
        guard length <= Frame.maxPayload else { throw .tooLong(length) }
        guard sequence == next else { throw .outOfOrder(expected: next, found: sequence) }
        guard available >= Frame.headerSize + length else { return nil }
        let payload = bytes[(start + Frame.headerSize)..<(start + Frame.headerSize + length)]
        let tag = Frame.read(UInt64.self, bytes, at: 24)
        guard tag == Frame.tag(key: key, header: bytes[start..<(start + 24)], payload: payload) else { throw .badTag }
        let frame = Frame(
            kind: Frame.read(UInt16.self, bytes, at: 4), value: Frame.read(UInt64.self, bytes, at: 16),
            payload: Array(payload))
        start += Frame.headerSize + length
        next &+= 1
        return frame
    }
}

/// The supervisor's clock over a worker's channel: when a wait on the worker has lasted too long,
/// whatever the worker does. Pure (times are given), so that the fuzz target drives it.
package struct ChannelClock: Sendable, Equatable {
    /// Seconds a wait may last: the hook timeout.
    package var limit: Double

    /// A clock that ends waits longer than `limit` seconds.
    package init(limit: Double) { self.limit = limit }

    /// Why the channel is stuck, or nil: a frame begun (`partialBytes` of it read) with nothing more
    /// for `quiet` seconds; or the worker waiting for the acknowledgement of its frame `waitingFor`
    /// (0: it waits for none) that was sent (`acknowledged` so far) `sinceAcknowledged` seconds ago.
    package func stall(
        partialBytes: Int, quiet: Double, waitingFor: Int64, acknowledged: Int64, sinceAcknowledged: Double?
    ) -> String? {
        if partialBytes > 0, quiet >= limit {
            return "it began a message and did not end it within \(Self.seconds(limit))"
        }
        if waitingFor > 0, waitingFor <= acknowledged, let since = sinceAcknowledged, since >= limit {
            return "its acknowledgement was taken by another reader"
        }
        return nil
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}
