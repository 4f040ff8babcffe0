import Foundation

/// Signal levels: dBFS to linear power and back.
enum Decibels {
    static func log10(_ x: Double) -> Double { Foundation.log10(x) }

    /// Linear power (0…1 of full scale) of a level in dBFS.
    static func power(dBFS: Double) -> Float { Float(pow(10, dBFS / 10)) }
}
