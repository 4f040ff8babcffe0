/// The outcome of checking a frame's parity, with any correction applied.
public struct ParityResult: Hashable, Sendable {
    /// The frame as received, or with the corrected bits inverted.
    public let frame: Frame
    /// How the parity passed.
    public let outcome: CRCOutcome
    /// The address: the AA field (DF11/17/18) or the CRC remainder (address/parity formats).
    public let address: UInt32
    /// DF11 only: the interrogator code overlaid on the parity (0 for spontaneous squitters).
    public let interrogatorID: Int?
    public init(frame: Frame, outcome: CRCOutcome, address: UInt32, interrogatorID: Int?) {
        self.frame = frame
        self.outcome = outcome
        self.address = address
        self.interrogatorID = interrogatorID
    }

    /// Number of bits inverted.
    public var correctedBits: Int {
        if case .corrected(let bits) = outcome { return bits }
        return 0
    }
}

/// Addresses the caller already trusts, for 2-bit correction and for accepting
/// address/parity formats.
public protocol KnownAddresses {
    func contains(_ address: UInt32) -> Bool
}

extension Set: KnownAddresses where Element == UInt32 {}

/// No address is known: 2-bit correction is off.
public struct NoKnownAddresses: KnownAddresses {
    public init() {}
    public func contains(_ address: UInt32) -> Bool { false }
}

/// Parity checking and the error-correction policy (Annex 10 Vol IV §3.1.2.3.3).
///
/// - DF17/18 (PI with zero overlay): syndrome 0 passes; a 1-bit error anywhere after the DF
///   is corrected; a 2-bit error only when the corrected frame's address is already known.
/// - DF11 (PI with the interrogator code in the low 7 bits): a syndrome below 0x80 passes
///   and is the interrogator code; otherwise a 1-bit error (with IC 0) is corrected; never 2.
/// - DF0/4/5/16/20/21/24 (AP: parity overlaid with the address): the syndrome *is* the
///   address; nothing can be corrected. Whether to believe the address is the caller's
///   decision (`AddressFilter`): `check` returns the address with outcome `.parity`.
/// - DF19 and others: passes only with syndrome 0.
public enum ParityCheck {
    /// Checks and, where the policy allows, corrects `frame`. Returns nil when the frame
    /// fails. `known` enables 2-bit correction of DF17/18 for those addresses.

    public static func check<K: KnownAddresses>(_ frame: Frame, known: K) -> ParityResult? {
        check(frame, syndrome: CRC24.syndrome(of: frame), known: known)
    }

    /// `check` with the frame's syndrome already known (`CRC24.syndrome(of:)`, or a
    /// related frame's syndrome XOR `CRC24.syndrome(ofBit:bitCount:)` for each bit that
    /// differs: the code is linear), for callers that try many variants of one frame.
    public static func check<K: KnownAddresses>(_ frame: Frame, syndrome: UInt32, known: K) -> ParityResult? {
        let df = frame.downlinkFormat
        switch df {
        case 17, 18:
            if syndrome == 0 {
                return ParityResult(frame: frame, outcome: .ok, address: UInt32(frame.bits(9, 32)), interrogatorID: nil)
            }
            guard let fix = SyndromeTable.long.fix(for: syndrome) else { return nil }
            let fixed = apply(fix, to: frame)
            let address = UInt32(fixed.bits(9, 32))
            if fix.bitCount == 2 && !known.contains(address) { return nil }
            return ParityResult(frame: fixed, outcome: .corrected(bits: fix.bitCount), address: address, interrogatorID: nil)
        case 11:
            if syndrome & ~0x7F == 0 {
                return ParityResult(frame: frame, outcome: .ok, address: UInt32(frame.bits(9, 32)), interrogatorID: Int(syndrome))
            }
            guard let fix = SyndromeTable.short.fix(for: syndrome), fix.bitCount == 1 else { return nil }
            let fixed = apply(fix, to: frame)
            return ParityResult(frame: fixed, outcome: .corrected(bits: 1), address: UInt32(fixed.bits(9, 32)), interrogatorID: 0)
        case 0, 4, 5, 16, 20, 21, 24:
            return ParityResult(frame: frame, outcome: .parity, address: syndrome, interrogatorID: nil)
        default:
            guard syndrome == 0 else { return nil }
            return ParityResult(frame: frame, outcome: .ok, address: UInt32(frame.bits(9, 32)), interrogatorID: nil)
        }
    }

    /// Checks without 2-bit correction.

    public static func check(_ frame: Frame) -> ParityResult? {
        check(frame, known: NoKnownAddresses())
    }


    static func apply(_ fix: SyndromeTable.Fix, to frame: Frame) -> Frame {
        var fixed = frame.flipping(bit: Int(fix.first))
        if fix.second != 0 { fixed = fixed.flipping(bit: Int(fix.second)) }
        return fixed
    }

    /// True for the address/parity formats, whose address is the CRC remainder.

    public static func isAddressParity(_ df: Int) -> Bool {
        switch df {
        case 0, 4, 5, 16, 20, 21, 24: true
        default: false
        }
    }
}
