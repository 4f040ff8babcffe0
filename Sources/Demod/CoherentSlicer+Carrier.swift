import RealModule

extension CoherentSlicer {
    /// The carrier's phase over a reply: correlations of stretches of it with their fitted
    /// pulses, each a phase at a time; a weighted least-squares line through the phases
    /// (unwrapped in time order) gives the phase at the start and the frequency offset.
    struct Carrier {
        let origin: Double
        private var times: [Double] = [], phases: [Double] = [], weights: [Double] = []
        private var magnitudeSum = 0.0, energySum = 0.0
        init(origin: Double) { self.origin = origin }
        var samples: Int { times.count }
        /// Mean pulse amplitude over the stretches.
        var amplitude: Float { Float(energySum > 0 ? magnitudeSum / energySum : 0) }

        mutating func add(time: Double, z: (Float, Float), weight: Float) {
            guard weight > 0 else { return }
            var theta = Double.atan2(y: Double(z.1), x: Double(z.0))
            if let last = phases.last {
                while theta - last > .pi { theta -= 2 * .pi }
                while theta - last < -.pi { theta += 2 * .pi }
            }
            let magnitude = (Double(z.0) * Double(z.0) + Double(z.1) * Double(z.1)).squareRoot()
            times.append(time - origin); phases.append(theta)
            // Weight by the stretch's SNR: the correlation's magnitude.
            weights.append(magnitude)
            magnitudeSum += magnitude; energySum += Double(weight)
        }

        /// The fitted phase line (a constant phase from one stretch).
        func fit() -> Line {
            guard times.count > 1 else { return Line(origin: origin, phase: phases.first ?? 0, slope: 0) }
            var sw = 0.0, st = 0.0, sp = 0.0, stt = 0.0, stp = 0.0
            for i in times.indices {
                let w = weights[i]
                sw += w; st += w * times[i]; sp += w * phases[i]; stt += w * times[i] * times[i]; stp += w * times[i] * phases[i]
            }
            let det = sw * stt - st * st
            guard det > 1e-9 else { return Line(origin: origin, phase: sp / sw, slope: 0) }
            let slope = (sw * stp - st * sp) / det
            return Line(origin: origin, phase: (sp - slope * st) / sw, slope: slope)
        }

        struct Line {
            let origin: Double, phase: Double, slope: Double
            /// Radians at sample time `t`.
            func angle(at t: Double) -> Double { phase + slope * (t - origin) }
        }
    }
}
