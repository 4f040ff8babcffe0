import ModeS
import Foundation
import GRDB

/// The aircraft database files `flytracker db import-aircraft` reads (FORMATS.md).
public enum AircraftFileFormat: String, Sendable {
    /// tar1090-db `aircraft.csv(.gz)`: `ICAO;registration;typecode;flags;description;year;owner-operator;`
    case tar1090 = "tar1090-db CSV"
    /// OpenSky `aircraftDatabase.csv`: a header row, then quoted comma-separated fields.
    case openSky = "OpenSky CSV"
}

/// Why an import could not run at all (rejected rows are counted, not thrown).
public enum AircraftImportError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case gzipUnavailable
    case gzipFailed(status: Int32, message: String)
    case unknownFormat(firstLine: String)
    case missingColumn(String)

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .gzipUnavailable: "the file is gzip-compressed and 'gzip' was not found in PATH (install gzip or decompress it first)"
        case .gzipFailed(let status, let message): "gzip failed (exit \(status))" + (message.isEmpty ? "" : ": \(message)")
        case .unknownFormat(let line): "not a tar1090-db or OpenSky aircraft CSV (first line: \(line.prefix(80)))"
        case .missingColumn(let name): "OpenSky CSV header has no '\(name)' column"
        }
    }
}

/// What an import did: rows stored, rows rejected and why.
public struct AircraftImportReport: Sendable, Equatable {
    public struct Rejection: Sendable, Equatable {
        /// 1-based line number in the (decompressed) file.
        public var line: Int
        public var reason: String

        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    public var format: AircraftFileFormat
    public var imported = 0
    public var rejected = 0
    /// Rejected rows by kind of reason ("bad address", "wrong column count", …).
    public var reasons: [String: Int] = [:]
    /// The first rejections in full (at most `AircraftImporter.rejectionExamples`).
    public var examples: [Rejection] = []

    public init(format: AircraftFileFormat) {
        self.format = format
    }
}

/// Reads an aircraft database file (tar1090-db or OpenSky CSV, plain or gzip) into the
/// `aircraft` table, in batched transactions; existing rows with the same address are
/// replaced.
public struct AircraftImporter: Sendable {
    public let database: AircraftRepository
    /// Rows per transaction.
    public var batchSize: Int
    public static let rejectionExamples = 10

    public init(database: AircraftRepository, batchSize: Int = 10_000) {
        self.database = database
        self.batchSize = max(batchSize, 1)
    }

    /// Imports the file at `path`.
    public func importFile(atPath path: String) async throws -> AircraftImportReport {
        try await importData(Self.readDecompressed(path: path))
    }

    /// Imports file contents (already decompressed).
    public func importData(_ bytes: [UInt8]) async throws -> AircraftImportReport {
        var start = 0
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { start = 3 }   // UTF-8 BOM
        let firstLine = String(decoding: bytes[start...].prefix { $0 != 10 }, as: UTF8.self)
        let format = try Self.detect(firstLine: firstLine)
        var report = AircraftImportReport(format: format)
        var batch: [AircraftInfo] = []
        batch.reserveCapacity(batchSize)

        func take(_ result: Result<AircraftInfo, RowRejection>, line: Int) async throws {
            switch result {
            case .success(let record):
                batch.append(record)
                if batch.count >= batchSize {
                    try await database.save(batch)
                    report.imported += batch.count
                    batch.removeAll(keepingCapacity: true)
                }
            case .failure(let rejection):
                report.rejected += 1
                report.reasons[rejection.kind, default: 0] += 1
                if report.examples.count < Self.rejectionExamples {
                    report.examples.append(.init(line: line, reason: rejection.description))
                }
            }
        }

        switch format {
        case .tar1090:
            for (line, fields) in CSVRecords(bytes, delimiter: UInt8(ascii: ";"), escape: UInt8(ascii: "\\"), skipping: start) {
                try await take(AircraftRow.tar1090(fields), line: line)
            }
        case .openSky:
            let quote = firstLine.first == "'" ? UInt8(ascii: "'") : UInt8(ascii: "\"")
            var records = CSVRecords(bytes, delimiter: UInt8(ascii: ","), quote: quote, skipping: start)
            guard let header = records.next() else { throw AircraftImportError.unknownFormat(firstLine: firstLine) }
            let columns = try OpenSkyColumns(header: header.fields)
            for (line, fields) in records {
                try await take(AircraftRow.openSky(fields, columns: columns), line: line)
            }
        }
        if !batch.isEmpty {
            try await database.save(batch)
            report.imported += batch.count
        }
        return report
    }

    /// tar1090-db rows start with 6 hex digits and a `;`; OpenSky files with a header naming
    /// `icao24`.
    static func detect(firstLine: String) throws -> AircraftFileFormat {
        if firstLine.lowercased().contains("icao24") && firstLine.contains(",") { return .openSky }
        if firstLine.contains(";") { return .tar1090 }
        throw AircraftImportError.unknownFormat(firstLine: firstLine)
    }

    /// The file's bytes, decompressed with `gzip -dc` when they start with the gzip magic.
    static func readDecompressed(path: String) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
            throw AircraftImportError.cannotRead(path: path, reason: reason)
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.readToEnd() ?? Data()
        } catch {
            throw AircraftImportError.cannotRead(path: path, reason: "\(error.localizedDescription)")
        }
        guard data.count >= 2, data[data.startIndex] == 0x1F, data[data.startIndex + 1] == 0x8B else { return [UInt8](data) }
        return try gunzip(path: path)
    }

    /// Runs `gzip -dc -- path` and returns its output.
    static func gunzip(path: String) throws -> [UInt8] {
        guard let gzip = findExecutable("gzip") else { throw AircraftImportError.gzipUnavailable }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gzip)
        process.arguments = ["-dc", "--", path]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw AircraftImportError.gzipUnavailable
        }
        // gzip's messages are short (far below a pipe's buffer): reading the output to its
        // end first cannot block on a full error pipe.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw AircraftImportError.gzipFailed(status: process.terminationStatus, message: text)
        }
        return [UInt8](data)
    }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
