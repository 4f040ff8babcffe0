/// Recently seen ICAO addresses, for accepting address/parity replies (DF0/4/5/16/20/21)
/// whose address is only the CRC remainder, and for 2-bit correction.
///
/// A fixed-size open-addressing table (no allocation after `init`): each address is stored
/// with the time it was last confirmed by a frame that carries its address in the clear
/// with valid parity (DF11 with IC 0, DF17/18). Entries expire `ttl` seconds after their last
/// confirmation. Collisions replace the older entry in a short probe sequence, so a very busy
/// sky may forget an address early (a missed reply, never a wrong one). Time is passed in.
public struct AddressFilter: Sendable {
    /// The slots' addresses (`empty` for a free slot), apart from their times so the lookups
    /// every noise candidate makes touch a 16 KB array instead of a 64 KB one.
    var addresses: [UInt32]
    /// When each slot's address was last confirmed (seconds).
    var seen: [Double]
    let mask: Int
    /// Seconds an address stays known after it was last confirmed.
    public let ttl: Double
    static let probes = 4
    static let empty: UInt32 = 0xFFFF_FFFF

    /// - Parameters:
    ///   - capacity: slots, rounded up to a power of two (default 4096).
    ///   - ttl: seconds an address stays known (default 60 s, as readsb).
    public init(capacity: Int = 4096, ttl: Double = 60) {
        var size = 16
        while size < capacity { size <<= 1 }
        addresses = Array(repeating: AddressFilter.empty, count: size)
        seen = Array(repeating: 0, count: size)
        mask = size - 1
        self.ttl = ttl
    }

    @usableFromInline
    func slot(_ address: UInt32, probe: Int) -> Int {
        // Multiplicative hash of the 24-bit address.
        let h = Int(truncatingIfNeeded: (UInt64(address) &* 0x9E37_79B9_7F4A_7C15) >> 40)
        return (h &+ probe) & mask
    }

    /// Records that `address` was confirmed at `time` (seconds).

    public mutating func record(_ address: UInt32, at time: Double) {
        var victim = slot(address, probe: 0)
        var oldest = Double.infinity
        for p in 0..<AddressFilter.probes {
            let i = slot(address, probe: p)
            if addresses[i] == address || addresses[i] == AddressFilter.empty {
                addresses[i] = address
                seen[i] = time
                return
            }
            if seen[i] < oldest { oldest = seen[i]; victim = i }
        }
        addresses[victim] = address
        seen[victim] = time
    }

    /// True when `address` was confirmed within `ttl` seconds before `time`.

    public func contains(_ address: UInt32, at time: Double) -> Bool {
        for p in 0..<AddressFilter.probes {
            let i = slot(address, probe: p)
            if addresses[i] == address { return time - seen[i] <= ttl && time >= seen[i] - ttl }
            if addresses[i] == AddressFilter.empty { return false }
        }
        return false
    }

    /// A view of the filter at one instant, usable as `KnownAddresses`.
    public func at(_ time: Double) -> Snapshot { Snapshot(filter: self, time: time) }

    /// The filter at one instant.
    public struct Snapshot: KnownAddresses {
        let filter: AddressFilter
        let time: Double
        public func contains(_ address: UInt32) -> Bool { filter.contains(address, at: time) }
    }

    /// Number of addresses known at `time`.
    public func count(at time: Double) -> Int {
        addresses.indices.reduce(0) { $0 + (addresses[$1] != AddressFilter.empty && time - seen[$1] <= ttl ? 1 : 0) }
    }
}

extension AddressFilter {
    /// The receiver's acceptance rule for one demodulated frame at `time` (seconds):
    /// checks parity (2-bit correction only for addresses already known), accepts a corrected
    /// DF11/17/18, or a DF11 with a non-zero interrogator code, only from an address already
    /// known, learns the address of every DF11/17/18 it accepts, and accepts an
    /// address/parity reply only when its address is known.
    /// Returns nil for a frame to discard.
    public mutating func accept(_ frame: Frame, at time: Double) -> ParityResult? {
        accept(frame, syndrome: CRC24.syndrome(of: frame), at: time)
    }

    /// `accept` with the frame's syndrome already computed (`CRC24.syndrome(of:)`), for callers
    /// that need it again (the demodulator's weak-bit repairs).
    public mutating func accept(_ frame: Frame, syndrome: UInt32, at time: Double) -> ParityResult? {
        guard let result = ParityCheck.check(frame, syndrome: syndrome, known: at(time)) else { return nil }
        switch result.frame.downlinkFormat {
        case 11:
            // Only a clean reply with interrogator code 0 (a spontaneous acquisition squitter
            // or an all-call from IC 0) introduces an address: 128 of the 2^24 syndromes pass
            // as some code, so noise would otherwise pass one time in 131 072.
            let known = contains(result.address, at: time)
            if (result.correctedBits > 0 || (result.interrogatorID ?? 0) != 0) && !known { return nil }
            record(result.address, at: time)
        case 17, 18:
            // A corrected squitter from an address nobody has heard in the clear is more
            // likely noise that happened to land one bit from a codeword than a new aircraft.
            if result.correctedBits > 0 && !contains(result.address, at: time) { return nil }
            record(result.address, at: time)
        default:
            if result.outcome == .parity && !contains(result.address, at: time) { return nil }
        }
        return result
    }
}
