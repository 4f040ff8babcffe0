/// Even or odd CPR encoding (the F bit).
public enum CPRFormat: String, Sendable, Hashable {
    case even, odd
}
