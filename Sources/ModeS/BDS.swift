/// A Comm-B data selector / register number, written `"4,0"`.
public struct BDS: Hashable, Sendable, CustomStringConvertible {
    /// First digit (BDS1), 0–15.
    public let major: UInt8
    /// Second digit (BDS2), 0–15.
    public let minor: UInt8
    public init(_ major: UInt8, _ minor: UInt8) { self.major = major; self.minor = minor }
    public var description: String { "\(String(major, radix: 16, uppercase: true)),\(String(minor, radix: 16, uppercase: true))" }
}
