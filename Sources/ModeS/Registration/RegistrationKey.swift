/// Registration comparison: `D-AIUP`, `daiup` and `D AIUP` are the same mark.
public enum RegistrationKey {
    /// Uppercase with `-`, spaces and dots removed.
    public static func normalize(_ registration: String) -> String {
        String(String.UnicodeScalarView(registration.uppercased().unicodeScalars.filter { $0 != "-" && $0 != " " && $0 != "." }))
    }
}
