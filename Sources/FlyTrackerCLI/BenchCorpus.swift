import ModeS

/// A mixed corpus of real Mode S frames for `flytracker bench`: every downlink format and
/// ADS-B type the decoder handles, taken from the published test vectors (ICAO addresses and
/// payloads as received), plus copies with one inverted bit (to exercise correction) and
/// copies that fail parity, in roughly the proportions a receiver sees.
enum BenchCorpus {
    static let frames: [String] = [
        "8D4840D6202CC371C32CE0576098", "8D406B902015A678D4D220AA4BDA",
        "8D40621D58C382D690C8AC2863A7", "8D40621D58C386435CC412692AD6",
        "8D485020994409940838175B284F", "8DA05F219B06B6AF189400CBC33F",
        "8D3461CF9908388930080F948EA1", "8C394C0F389B1667E947DB7BB8BC",
        "8DA05629EA21485CBF3F8CADAEEB", "8DA2C1B6E112B600000000760759",
        "903A33FF40100858D34FF3CCE976", "5D484FDEA248F5", "2000171806A983",
        "2A00516D492B80", "A000083E202CC371C31DE0AA1CCF", "A8001EBCAEE57730A80106DE1344",
        "A80006ACF9363D3BBF9CE98F1E1D", "A80004AAA74A072BFDEFC1D5CB4F",
        "A800178D10010080F50000D5893C", "A0000638FA81C10000000081A92F",
    ]

    /// `count` frames: the corpus, then 1-bit-error copies (1 in 8), then parity failures
    /// (2-bit errors in DF17, 1 in 16), cycling.
    static func make(count: Int) -> [Frame] {
        let base = frames.map { try! Frame(hex: $0) }
        var out: [Frame] = []
        out.reserveCapacity(count)
        var i = 0
        while out.count < count {
            let f = base[i % base.count]
            switch i % 16 {
            case 3, 11: out.append(f.flipping(bit: 6 + (i * 7) % (f.bitCount - 6)))
            case 7 where f.isLong: out.append(f.flipping(bit: 40).flipping(bit: 77))
            default: out.append(f)
            }
            i += 1
        }
        return out
    }
}
