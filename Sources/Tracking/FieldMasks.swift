import ModeS

/// The catalogue's fields grouped as the table treats them, as presence-bit masks
/// (`Field.bit`), read once from the declarations.
enum FieldMasks {
    /// Fields the table keeps from messages (`FieldKeeping.fromMessages`).
    static let fromMessages = mask { $0.kept == .fromMessages }
    static let identity = mask { $0.expiry == .identity }
    static let state = mask { $0.expiry == .state }
    static let position = mask { $0.expiry == .position }
    static let weather = mask { $0.expiry == .weather }

    static func mask(_ include: (FieldDeclaration) -> Bool) -> UInt64 {
        Field.allCases.reduce(0) { include($1.declaration) ? $0 | $1.bit : $0 }
    }
}
