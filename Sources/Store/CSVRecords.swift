/// Splits delimited text into records of fields, byte by byte (UTF-8).
///
/// - `quote` (e.g. `"` or `'`): a field that starts with it runs to the next lone quote;
///   a doubled quote inside is one quote character; delimiters and line ends inside are
///   part of the field (a record may span lines).
/// - `escape` (e.g. `\`): the next byte is taken literally (tar1090-db writes `\;`).
/// - Records end at `\n`; a `\r` before it is dropped. Blank lines give no record.
///
/// Each record comes with the line number it starts on (1-based).
struct CSVRecords: Sequence, IteratorProtocol {
    let bytes: [UInt8]
    let delimiter: UInt8
    let quote: UInt8?
    let escape: UInt8?
    private var offset = 0
    private var line = 1

    init(_ bytes: [UInt8], delimiter: UInt8, quote: UInt8? = nil, escape: UInt8? = nil, skipping prefix: Int = 0) {
        self.bytes = bytes
        self.delimiter = delimiter
        self.quote = quote
        self.escape = escape
        offset = prefix
    }

    /// The next record: its first line number and fields.
    mutating func next() -> (line: Int, fields: [String])? {
        while offset < bytes.count {
            let start = line
            var fields: [String] = []
            var field: [UInt8] = []
            var quoted = false
            var atFieldStart = true
            var ended = false
            while offset < bytes.count {
                let b = bytes[offset]
                offset += 1
                if quoted {
                    if b == quote {
                        if offset < bytes.count && bytes[offset] == quote {
                            field.append(b)
                            offset += 1
                        } else {
                            quoted = false
                        }
                    } else {
                        if b == 10 { line += 1 }
                        field.append(b)
                    }
                    continue
                }
                if let escape, b == escape, offset < bytes.count, bytes[offset] != 10 {
                    field.append(bytes[offset])
                    offset += 1
                    atFieldStart = false
                    continue
                }
                if atFieldStart, let quote, b == quote {
                    quoted = true
                    atFieldStart = false
                    continue
                }
                if b == delimiter {
                    fields.append(String(decoding: field, as: UTF8.self))
                    field.removeAll(keepingCapacity: true)
                    atFieldStart = true
                    continue
                }
                if b == 10 {
                    line += 1
                    ended = true
                    break
                }
                if b == 13 && (offset == bytes.count || bytes[offset] == 10) { continue }
                field.append(b)
                atFieldStart = false
            }
            _ = ended
            if fields.isEmpty && field.isEmpty { continue }   // blank line
            fields.append(String(decoding: field, as: UTF8.self))
            return (start, fields)
        }
        return nil
    }
}
