import Foundation
import Store

/// Figures in a user's units (`UserRecord.units`): what the command line, reminders and
/// webhook texts show. Distances are kept in NM, altitudes in ft and speeds in kt (DESIGN.md);
/// these convert only for reading.
extension Units {
    /// A distance, one decimal: `7.4 km`, `4.6 mi`, `4.0 NM`.
    public func distance(_ nm: Double) -> String {
        switch self {
        case .metric: String(format: "%.1f km", nm * 1.852)
        case .imperial: String(format: "%.1f mi", nm * 1.852 / 1.609344)
        case .aeronautical: String(format: "%.1f NM", nm)
        }
    }

    /// An altitude: `914 m` (metric), else `3000 ft`.
    public func altitude(_ ft: Int) -> String {
        self == .metric ? "\(Int((Double(ft) * 0.3048).rounded())) m" : "\(ft) ft"
    }

    /// A speed: `833 km/h`, `518 mph`, `450 kt`.
    public func speed(_ kt: Double) -> String {
        switch self {
        case .metric: "\(Int((kt * 1.852).rounded())) km/h"
        case .imperial: "\(Int((kt * 1.852 / 1.609344).rounded())) mph"
        case .aeronautical: "\(Int(kt.rounded())) kt"
        }
    }
}
