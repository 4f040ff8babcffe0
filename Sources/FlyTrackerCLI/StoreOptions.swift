import ArgumentParser
import Foundation
import PostgresStore
import Store

/// `--db PATH|postgres://…` and opening the database, shared by `users`, `track`, `history`, `stats`.
struct StoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Database: a SQLite file (default: $XDG_DATA_HOME/flytracker/flytracker.sqlite, else ~/.local/share/flytracker/flytracker.sqlite) or postgres://USER@HOST[:PORT]/DATABASE.", valueName: "PATH|URL"))
    var db: String?

    /// The store `--db` names, SQLite or PostgreSQL (migrated), or one error line and exit 1.
    func openStore() async throws -> any SightingStore {
        guard let db, PostgresURL.isPostgres(db) else { return try open() }
        do {
            return try await PostgresStore.open(try PostgresURL(db))
        } catch {
            StandardStreams.error("\(error)")
            throw ExitCode(1)
        }
    }

    /// The SQLite database, or one error line and exit status 1 (also for a PostgreSQL
    /// address: for commands that work on SQLite only, none at the moment).
    func open() throws -> AppDatabase {
        if let db, PostgresURL.isPostgres(db) {
            StandardStreams.error("this command works on the SQLite database only")
            throw ExitCode(1)
        }
        let path = db ?? AppDatabase.defaultPath()
        do {
            return try AppDatabase.open(path: path)
        } catch {
            StandardStreams.error("cannot open database \(path): \(error)")
            throw ExitCode(1)
        }
    }
}

/// Runs `body`; a Store error becomes one `flytracker: …` line and exit status 1.
func reportingErrors<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch {
        throw reported(error)
    }
}

/// The same for async work.
func reportingErrors<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch {
        throw reported(error)
    }
}

/// Prints an error's message on standard error: the exit code to end with (an `ExitCode`
/// passes as it is).
private func reported(_ error: any Error) -> ExitCode {
    if let code = error as? ExitCode { return code }
    StandardStreams.error("\(error)")
    return ExitCode(1)
}

/// Unix seconds now.
func unixNow() -> Double { Date().timeIntervalSince1970 }

/// `2026-11-22 10:04:05` (UTC) for tables.
func formatTime(_ t: Double) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: Date(timeIntervalSince1970: t))
}

/// Left-aligned columns separated by two spaces.
func tableLines(_ header: [String], _ rows: [[String]]) -> [String] {
    let all = [header] + rows
    var widths = Array(repeating: 0, count: header.count)
    for row in all { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) } }
    return all.map { row in
        row.enumerated().map { i, cell in i == row.count - 1 ? cell : cell.padding(toLength: widths[i], withPad: " ", startingAt: 0) }
            .joined(separator: "  ")
    }
}

/// JSON text of a value (sorted keys).
func jsonText<T: Encodable>(_ value: T) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
}

/// A password: the first line of standard input when it is not a terminal; otherwise asked
/// for on the terminal with echo off.
func readPassword(prompt: String) throws -> String {
    if isatty(STDIN_FILENO) == 0 {
        return try CommandInput.password(fromLine: Swift.readLine(strippingNewline: true))
    }
    var old = termios()
    tcgetattr(STDIN_FILENO, &old)
    var quiet = old
    quiet.c_lflag &= ~tcflag_t(ECHO)
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
    defer {
        tcsetattr(STDIN_FILENO, TCSAFLUSH, &old)
        StandardStreams.writeAll(Array("\n".utf8), to: STDERR_FILENO)
    }
    StandardStreams.writeAll(Array(prompt.utf8), to: STDERR_FILENO)
    return try CommandInput.password(fromLine: Swift.readLine(strippingNewline: true))
}
