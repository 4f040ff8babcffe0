/// A decoded Comm-B register (the MB field of DF20/DF21), one case per register FlyTracker
/// knows (ICAO Doc 9871 Appendix A).
public enum CommBRegister: Hashable, Sendable {
    case dataLinkCapability(BDS10)
    case capabilities(BDS17)
    case identification(BDS20)
    case resolutionAdvisory(BDS30)
    case selectedVerticalIntention(BDS40)
    case meteorologicalRoutine(BDS44)
    case meteorologicalHazard(BDS45)
    case trackAndTurn(BDS50)
    case headingAndSpeed(BDS60)

    /// The register number.
    public var bds: BDS { kind.bds }

    /// Writes `bds` and the register's fields.
    public func contribute(to fields: inout FieldSet) {
        switch self {
        case .dataLinkCapability(let r): r.contribute(to: &fields)
        case .capabilities(let r): r.contribute(to: &fields)
        case .identification(let r): r.contribute(to: &fields)
        case .resolutionAdvisory(let r): r.contribute(to: &fields)
        case .selectedVerticalIntention(let r): r.contribute(to: &fields)
        case .meteorologicalRoutine(let r): r.contribute(to: &fields)
        case .meteorologicalHazard(let r): r.contribute(to: &fields)
        case .trackAndTurn(let r): r.contribute(to: &fields)
        case .headingAndSpeed(let r): r.contribute(to: &fields)
        }
    }

    var kind: Kind {
        switch self {
        case .dataLinkCapability: .bds10
        case .capabilities: .bds17
        case .identification: .bds20
        case .resolutionAdvisory: .bds30
        case .selectedVerticalIntention: .bds40
        case .meteorologicalRoutine: .bds44
        case .meteorologicalHazard: .bds45
        case .trackAndTurn: .bds50
        case .headingAndSpeed: .bds60
        }
    }

    /// The registers without their content, in a fixed order, for allocation-free scoring.
    enum Kind: Int, CaseIterable {
        case bds10, bds17, bds20, bds30, bds40, bds44, bds45, bds50, bds60

        static let count = 9

        var bds: BDS {
            switch self {
            case .bds10: BDS10.bds
            case .bds17: BDS17.bds
            case .bds20: BDS20.bds
            case .bds30: BDS30.bds
            case .bds40: BDS40.bds
            case .bds44: BDS44.bds
            case .bds45: BDS45.bds
            case .bds50: BDS50.bds
            case .bds60: BDS60.bds
            }
        }

        /// The register's inference score for `mb`; 0 when its validator rejects it.
        func score(_ mb: MessageField) -> Int {
            switch self {
            case .bds10: BDS10.score(mb)
            case .bds17: BDS17.score(mb)
            case .bds20: BDS20.score(mb)
            case .bds30: BDS30.score(mb)
            case .bds40: BDS40.score(mb)
            case .bds44: BDS44.score(mb)
            case .bds45: BDS45.score(mb)
            case .bds50: BDS50.score(mb)
            case .bds60: BDS60.score(mb)
            }
        }

        /// `mb` decoded as this register.
        func decode(_ mb: MessageField) -> CommBRegister {
            switch self {
            case .bds10: .dataLinkCapability(BDS10(mb))
            case .bds17: .capabilities(BDS17(mb))
            case .bds20: .identification(BDS20(mb))
            case .bds30: .resolutionAdvisory(BDS30(mb))
            case .bds40: .selectedVerticalIntention(BDS40(mb))
            case .bds44: .meteorologicalRoutine(BDS44(mb))
            case .bds45: .meteorologicalHazard(BDS45(mb))
            case .bds50: .trackAndTurn(BDS50(mb))
            case .bds60: .headingAndSpeed(BDS60(mb))
            }
        }
    }
}
