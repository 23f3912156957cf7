import ArgumentParser
import ByteCoding
import Conformance
import EthereumTypes
import Foundation
import JSONCoding
import RLPCoding

struct RLPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rlp", abstract: "Encode JSON to RLP or decode RLP to JSON.",
        subcommands: [Encode.self, Decode.self])

    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encode JSON: \"0x…\" is a byte string, a number a minimal big-endian integer, an array a list.")

        @Argument(help: "JSON, e.g. '[\"0x01\", [\"0xabcd\"], 1024]'.")
        var json: String

        func run() throws {
            let value: JSON
            do {
                value = try JSON.parse(json)
            } catch {
                throw CLIError("invalid JSON input")
            }
            print(Hex.encodePrefixed(RLP.encode(try Self.item(value, path: "$"))))
        }

        static func item(_ value: JSON, path: String) throws -> RLPItem {
            switch value {
            case .string(let s):
                if s.hasPrefix("0x") || s.hasPrefix("0X") {
                    do { return .bytes(try Hex.decode(s)) } catch { throw CLIError("\(path): \(error)") }
                }
                return .bytes(Array(s.utf8))
            case .number(let n):
                guard let v = UInt256(decimal: n) else {
                    throw CLIError(
                        "\(path): \(n) is not a non-negative integer below 2^256 (use 0x hex for big values)")
                }
                return .bytes(v.minimalBigEndianBytes)
            case .array(let a):
                return .list(try a.enumerated().map { try item($0.element, path: "\(path)[\($0.offset)]") })
            default:
                throw CLIError("\(path): only strings, non-negative integers and arrays can be RLP-encoded")
            }
        }
    }

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decode RLP hex to JSON (byte strings as 0x hex).")

        @Argument(help: "RLP bytes as hex.")
        var hex: String

        func run() throws {
            let bytes: [UInt8]
            do { bytes = try Hex.decode(hex) } catch { throw CLIError("invalid hex input: \(error)") }
            do {
                print(Self.json(try RLP.decode(bytes)))
            } catch {
                throw CLIError("\(error)")
            }
        }

        static func json(_ item: RLPItem) -> String {
            switch item {
            case .bytes(let b): return "\"" + Hex.encodePrefixed(b) + "\""
            case .list(let items): return "[" + items.map(json).joined(separator: ",") + "]"
            }
        }
    }
}
