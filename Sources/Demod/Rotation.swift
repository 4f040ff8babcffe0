import RealModule

/// A unit phasor e^{i(angle + k·step)} advanced one step at a time by a complex multiply (no
/// sine or cosine a sample); in `Double`, so a few hundred steps stay exact to ~1e-13.
struct Rotation {
    private(set) var cos: Double
    private(set) var sin: Double
    private let stepCos: Double, stepSin: Double

    init(angle: Double, step: Double) {
        cos = Double.cos(angle); sin = Double.sin(angle)
        stepCos = Double.cos(step); stepSin = Double.sin(step)
    }

    mutating func advance() {
        (cos, sin) = (cos * stepCos - sin * stepSin, sin * stepCos + cos * stepSin)
    }
}
