/// All-call reply / acquisition squitter, DF11 (Annex 10 Vol IV §3.1.2.5.2.2).
///
/// | frame bits | field |
/// |---|---|
/// | 6–8 | CA capability (4 on ground, 5 airborne, 6/7 either) |
/// | 9–32 | AA address |
/// | 33–56 | PI parity overlaid with the interrogator code |
public struct AllCallReply: Hashable, Sendable {
    public var capability: Int
    public var address: UInt32

    public init?(_ frame: Frame) {
        guard frame.downlinkFormat == 11, !frame.isLong else { return nil }
        capability = Int(frame.bits(6, 8))
        address = UInt32(frame.bits(9, 32))
    }

    public func contribute(to fields: inout FieldSet) {
        fields.ca = capability
        switch capability {
        case 4: fields.onGround = true
        case 5: fields.onGround = false
        default: break
        }
    }
}
