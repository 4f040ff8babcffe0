/// The keys of `run --interactive`, as a pure state machine: `s`/`S` next and previous sort
/// order, `/` starts a filter (typed characters, Backspace, Enter keeps it, Esc clears it),
/// `q` quits. Bytes in, the view's state and whether to quit out.
struct InteractiveKeys: Equatable {
    var sort: InteractiveSort
    /// Aircraft shown: those whose hex, callsign, registration or type contains it (any case).
    var filter = ""
    /// Typing a filter now.
    var editing = false
    private(set) var quit = false

    init(sort: InteractiveSort) { self.sort = sort }

    /// One key (a byte of the terminal's input).
    mutating func press(_ byte: UInt8) {
        if editing {
            switch byte {
            case 13, 10: editing = false                                   // Enter
            case 27: editing = false; filter = ""                          // Esc
            case 127, 8: if !filter.isEmpty { filter.removeLast() }        // Backspace
            case 0x21...0x7E where filter.count < 16: filter.append(Character(UnicodeScalar(byte)))
            default: break
            }
            return
        }
        switch byte {
        case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3: quit = true         // q, Ctrl-C in raw mode
        case UInt8(ascii: "s"): sort = Self.step(sort, by: 1)
        case UInt8(ascii: "S"): sort = Self.step(sort, by: -1)
        case UInt8(ascii: "/"): editing = true; filter = ""
        case 27: filter = ""
        default: break
        }
    }

    static func step(_ sort: InteractiveSort, by delta: Int) -> InteractiveSort {
        let all = InteractiveSort.allCases
        let i = all.firstIndex(of: sort) ?? 0
        return all[(i + delta + all.count) % all.count]
    }

    /// The line under the table: what the keys do, or the filter being typed.
    var hint: String {
        if editing { return "filter: \(filter)_  (Enter keeps, Esc clears)" }
        return (filter.isEmpty ? "" : "filter \"\(filter)\" · ") + "s/S sort · / filter · q quit"
    }
}
