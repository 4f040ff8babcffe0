/// The command line as FlyTracker reads it, before argument parsing.
enum CommandLineArguments {
    /// Joins an option and a negative number after it into one argument (`--lon -73.8` →
    /// `--lon=-73.8`), so coordinates west of Greenwich and south of the equator can be
    /// written as they are everywhere else: the parser would otherwise take `-73.8` for a
    /// short option. Only a long option without `=` followed by a number that starts with
    /// `-` is joined; `--` ends the joining (what follows is positional).
    static func attachingNegativeNumbers(_ arguments: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(arguments.count)
        var i = 0
        while i < arguments.count {
            let a = arguments[i]
            if a == "--" {
                out += arguments[i...]
                break
            }
            if a.hasPrefix("--"), !a.contains("="), i + 1 < arguments.count, isNegativeNumber(arguments[i + 1]) {
                out.append(a + "=" + arguments[i + 1])
                i += 2
                continue
            }
            out.append(a)
            i += 1
        }
        return out
    }

    /// `-73.8`, `-5`, `-0.5`, `-1e3`, and coordinate lists that start negative
    /// (`-33.9,151.2`): a minus sign, then numbers separated by commas.
    static func isNegativeNumber(_ text: String) -> Bool {
        guard text.hasPrefix("-"), text.count > 1 else { return false }
        let rest = text.dropFirst()
        guard let first = rest.first, first.isNumber || first == "." else { return false }
        return rest.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { Double($0) != nil }
    }
}
