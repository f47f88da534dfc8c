// The time of day a full-screen view's status line shows (browse and preview: "reloaded at
// 14:02:31"), written once for both.

import Foundation

/// The time of day for a status line.
package enum StatusClock {
    /// The local time now, HH:MM:SS.
    package static func now() -> String {
        var now = time(nil), parts = tm()
        localtime_r(&now, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}
