/// The paging parameters of Etherscan's list actions (`txlist`, `tokentx`, …): `page` (from 1), `offset` (rows per
/// page), `sort` (`asc`, `desc`), `startblock`, `endblock`; docs.etherscan.io txlist.
///
/// Etherscan's rule: `page × offset ≤ 10,000` (its text: ``EtherscanAnswer/windowTooLarge``). Without `page` and
/// `offset` a list holds up to 10,000 rows, as Etherscan's.
public struct EtherscanPaging: Sendable, Equatable {
    public enum Sort: Sendable, Equatable { case ascending, descending }

    /// The largest `page × offset` (Etherscan's result window).
    public static let window = 10_000

    /// 1-based.
    public var page: Int
    public var offset: Int
    public var sort: Sort
    public var startBlock: UInt64
    /// nil: the head.
    public var endBlock: UInt64?

    public init(
        page: Int = 1, offset: Int = window, sort: Sort = .ascending, startBlock: UInt64 = 0, endBlock: UInt64? = nil
    ) {
        self.page = page
        self.offset = offset
        self.sort = sort
        self.startBlock = startBlock
        self.endBlock = endBlock
    }

    /// The rows a scan must find before the page is complete: `page × offset`.
    public var rowsNeeded: Int { page * offset }

    /// The page's rows out of the first ``rowsNeeded`` rows in `sort` order.
    public func slice<T>(_ rows: [T]) -> [T] {
        let start = (page - 1) * offset
        guard start < rows.count else { return [] }
        return Array(rows[start..<min(rows.count, start + offset)])
    }

    /// Reads the parameters; a missing one takes its default (page 1, offset 10,000, ascending, blocks 0 to the
    /// head). A `page` or `offset` too large for the window, however many digits it has, is the window error.
    public init(_ query: EtherscanQuery) throws(EtherscanAnswer) {
        self.init()
        let page = try Self.count(query["page"], name: "page")
        let offset = try Self.count(query["offset"], name: "offset")
        // Etherscan treats page 0 as the first page and offset 0 as the largest page (its default).
        self.page = max(1, page ?? 1)
        self.offset = offset.map { $0 == 0 ? Self.window : $0 } ?? Self.window
        let (product, overflow) = self.page.multipliedReportingOverflow(by: self.offset)
        guard !overflow, product <= Self.window else { throw .notOK(EtherscanAnswer.windowTooLarge) }
        switch query["sort"]?.lowercased() {
        case nil, "", "asc": sort = .ascending
        case "desc": sort = .descending
        default: throw .notOK("Error! Invalid sort order: asc or desc")
        }
        startBlock = try Self.block(query["startblock"], name: "startblock") ?? 0
        endBlock = try Self.block(query["endblock"], name: "endblock")
    }

    /// A whole number: nil when absent; `Int.max` when it has more digits than fit (the window check then
    /// refuses it with Etherscan's text).
    static func count(_ text: String?, name: String) throws(EtherscanAnswer) -> Int? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            throw .notOK("Error! Invalid \(name): a whole number from 1 to \(window)")
        }
        return Int(text) ?? Int.max
    }

    /// A block number, 0 … 2^64 − 1; nil when absent.
    public static func block(_ text: String?, name: String) throws(EtherscanAnswer) -> UInt64? {
        guard let text, !text.isEmpty else { return nil }
        guard text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }), let n = UInt64(text)
        else { throw .notOK("Error! Invalid \(name): a block number from 0 to \(UInt64.max)") }
        return n
    }
}
