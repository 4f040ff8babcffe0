import ArgumentParser
import ModeS
import Tracking

/// Orders of the interactive table.
enum InteractiveSort: String, CaseIterable, ExpressibleByArgument, Sendable {
    case address, registration, callsign, type, squawk, altitude, speed, distance, rssi, messages, age
}

/// The `run --interactive` terminal table as a pure function: a snapshot in, the lines to
/// print out (no ANSI codes; the caller clears the screen and refreshes each second).
///
/// Columns, most important first: address, callsign, altitude, registration, type, speed,
/// distance, squawk, track, age, RSSI, messages. Columns are dropped from the end of that
/// list until a line fits `width`; a last resort truncates.
enum InteractiveView {
    struct Column {
        let title: String
        let width: Int
        let rightAligned: Bool
        let cell: @Sendable (Aircraft, Double) -> String
    }

    /// In display order; `priority` lists the same columns most important first.
    static let columns: [Column] = [
        Column(title: "Hex", width: 7, rightAligned: false) { a, _ in a.key.hex },
        Column(title: "Reg", width: 8, rightAligned: false) { a, _ in a.registration ?? "" },
        Column(title: "Flight", width: 8, rightAligned: false) { a, _ in a.flight?.value ?? "" },
        Column(title: "Type", width: 4, rightAligned: false) { a, _ in a.typeCode ?? "" },
        Column(title: "Sqwk", width: 4, rightAligned: false) { a, _ in a.squawkString ?? "" },
        Column(title: "Alt", width: 6, rightAligned: true) { a, _ in
            a.isOnGround ? "grnd" : a.altBaro.map { String($0.value) } ?? ""
        },
        Column(title: "Spd", width: 4, rightAligned: true) { a, _ in a.gs.map { String(Int($0.value.rounded())) } ?? "" },
        Column(title: "Trk", width: 3, rightAligned: true) { a, _ in a.track.map { String(Int($0.value.rounded()) % 360) } ?? "" },
        Column(title: "Dist", width: 6, rightAligned: true) { a, _ in a.distance.map { fixed($0, 1) } ?? "" },
        Column(title: "RSSI", width: 5, rightAligned: true) { a, _ in a.rssi.map { fixed($0, 1) } ?? "" },
        Column(title: "Msgs", width: 6, rightAligned: true) { a, _ in String(a.messages) },
        Column(title: "Age", width: 3, rightAligned: true) { a, now in String(max(0, Int((now - a.lastSeen).rounded(.down)))) },
    ]
    static let priority = ["Hex", "Flight", "Alt", "Reg", "Type", "Spd", "Dist", "Sqwk", "Trk", "Age", "RSSI", "Msgs"]

    /// The lines: a header, one line per aircraft (at most `height − 2`, or `height − 3` with
    /// a `hint`, when a height is given), a status line and the hint. Every line is at most
    /// `width` characters. `filter`: only aircraft whose hex, callsign, registration or type
    /// contains it (any case).
    static func lines(_ snapshot: TableSnapshot, sort: InteractiveSort = .distance, width: Int, height: Int? = nil,
                      filter: String = "", hint: String? = nil) -> [String] {
        let width = max(width, 1)
        let shown = fitting(width)
        var out = [clip(row(shown.map { pad($0.title, $0) }), width)]
        let wanted = filter.uppercased()
        let matching = wanted.isEmpty ? snapshot.aircraft : snapshot.aircraft.filter { a in
            [a.key.hex.uppercased(), a.flight?.value, a.registration, a.typeCode].contains { $0?.uppercased().contains(wanted) == true }
        }
        let sorted = order(matching, by: sort, now: snapshot.time)
        let room = height.map { max($0 - (hint == nil ? 2 : 3), 0) } ?? sorted.count
        for a in sorted.prefix(room) {
            out.append(clip(row(shown.map { pad($0.cell(a, snapshot.time), $0) }), width))
        }
        var status = "\(snapshot.count) aircraft"
        if !wanted.isEmpty { status += ", \(matching.count) matching" }
        if sorted.count > room { status += " (\(sorted.count - room) not shown)" }
        status += ", sorted by \(sort.rawValue), \(snapshot.counters.messages) messages"
        out.append(clip(status, width))
        if let hint { out.append(clip(hint, width)) }
        return out
    }

    /// The columns that fit `width`, in display order.
    static func fitting(_ width: Int) -> [Column] {
        var kept = priority
        func total(_ names: [String]) -> Int {
            let widths = columns.filter { names.contains($0.title) }.map(\.width)
            return widths.reduce(0, +) + max(widths.count - 1, 0)
        }
        while kept.count > 1 && total(kept) > width { kept.removeLast() }
        return columns.filter { kept.contains($0.title) }
    }

    /// Aircraft in display order: nil values last, ties by address.
    static func order(_ aircraft: [Aircraft], by sort: InteractiveSort, now: Double) -> [Aircraft] {
        func text(_ a: Aircraft) -> String? {
            switch sort {
            case .registration: a.registration
            case .callsign: a.flight?.value
            case .type: a.typeCode
            case .squawk: a.squawkString
            default: nil
            }
        }
        /// Numbers sort ascending; negated where the natural order is descending.
        func number(_ a: Aircraft) -> Double? {
            switch sort {
            case .altitude: a.isOnGround ? 0 : a.altBaro.map { Double($0.value) }
            case .speed: a.gs.map { -$0.value }
            case .distance: a.distance
            case .rssi: a.rssi.map { -$0 }
            case .messages: -Double(a.messages)
            case .age: now - a.lastSeen
            default: nil
            }
        }
        return aircraft.sorted { x, y in
            switch sort {
            case .address:
                return x.key < y.key
            case .registration, .callsign, .type, .squawk:
                switch (text(x), text(y)) {
                case let (a?, b?) where a != b: return a < b
                case (_?, nil): return true
                case (nil, _?): return false
                default: return x.key < y.key
                }
            default:
                switch (number(x), number(y)) {
                case let (a?, b?) where a != b: return a < b
                case (_?, nil): return true
                case (nil, _?): return false
                default: return x.key < y.key
                }
            }
        }
    }

    static func row(_ cells: [String]) -> String {
        var line = cells.joined(separator: " ")
        while line.last == " " { line.removeLast() }
        return line
    }

    static func pad(_ text: String, _ column: Column) -> String {
        let cut = text.count > column.width ? String(text.prefix(column.width)) : text
        let fill = String(repeating: " ", count: column.width - cut.count)
        return column.rightAligned ? fill + cut : cut + fill
    }

    static func clip(_ line: String, _ width: Int) -> String {
        line.count > width ? String(line.prefix(width)) : line
    }

    /// `value` with `decimals` decimals, without Foundation.
    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let whole = magnitude / UInt(scale)
        let fraction = magnitude % UInt(scale)
        guard decimals > 0 else { return sign + String(whole) }
        let digits = String(fraction)
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
    }
}
