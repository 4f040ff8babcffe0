/// A DF17 or DF18 extended squitter (Annex 10 Vol IV §3.1.2.8.6, DO-260B §2.2.3.1).
///
/// | frame bits | field |
/// |---|---|
/// | 1–5 | DF 17 or 18 |
/// | 6–8 | CA (DF17 capability) or CF (DF18 control field) |
/// | 9–32 | AA: 24-bit address |
/// | 33–88 | ME |
/// | 89–112 | PI parity |
///
/// DF18 control field: 0 ADS-B from a non-transponder device with an ICAO address;
/// 1 the same with a non-ICAO (anonymous) address; 2 fine TIS-B (ME as ADS-B);
/// 3 coarse TIS-B airborne position; 4 TIS-B/ADS-R management; 5 fine TIS-B with a non-ICAO
/// address; 6 ADS-R (rebroadcast; ME as ADS-B); 7 reserved.
/// For CF 2 and 6 the IMF bit (ME bit 8 of position messages) says whether the address is an
/// ICAO address (0) or another kind (1).
public struct ExtendedSquitter: Hashable, Sendable {
    /// DF (17 or 18) and the 3-bit field after it, stored small: messages are copied a lot.
    private let format: UInt8
    private let field: UInt8
    /// 17 or 18.
    public var downlinkFormat: Int { Int(format) }
    /// DF17: transponder capability (CA).
    public var capability: Int? { format == 17 ? Int(field) : nil }
    /// DF18: control field (CF).
    public var controlField: Int? { format == 18 ? Int(field) : nil }
    public var address: UInt32
    public var addressType: AddressType
    /// The ADS-B content; nil for DF18 CF 3, 4 and 7 (not ADS-B message formats).
    public var message: ADSBMessage?
    /// DF18 CF3: coarse TIS-B airborne position, kept raw.
    public var coarseTISB: MessageField? { controlField == 3 ? me : nil }
    /// The ME field as received.
    public var me: MessageField

    public init?(_ frame: Frame) {
        let df = frame.downlinkFormat
        guard (df == 17 || df == 18), frame.isLong else { return nil }
        format = UInt8(df)
        address = UInt32(frame.bits(9, 32))
        me = frame.messageField
        field = UInt8(frame.bits(6, 8))
        if df == 17 {
            addressType = .adsbICAO
            message = ADSBMessage(me)
            return
        }
        let cf = Int(field)
        // IMF: ME bit 8 of TIS-B/ADS-R messages (position messages carry it there).
        let imf = me.bit(8)
        switch cf {
        case 0: addressType = .adsbICAONonTransponder; message = ADSBMessage(me)
        case 1: addressType = .adsbOther; message = ADSBMessage(me)
        case 2: addressType = imf ? .tisbOther : .tisbICAO; message = ADSBMessage(me)
        case 3: addressType = imf ? .tisbOther : .tisbICAO
        case 5: addressType = .tisbOther; message = ADSBMessage(me)
        case 6: addressType = imf ? .adsbOther : .adsrICAO; message = ADSBMessage(me)
        default: addressType = .tisbOther
        }
    }

    /// Writes the squitter's values into `fields`.
    public func contribute(to fields: inout FieldSet) {
        fields.address = address
        fields.addressType = addressType
        fields.tc = me.typeCode
        if let capability {
            fields.ca = capability
            switch capability {
            case 4: fields.onGround = true
            case 5: fields.onGround = false
            default: break
            }
        }
        message?.contribute(to: &fields)
    }
}
