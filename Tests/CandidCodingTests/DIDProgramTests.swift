import CandidCoding
import Testing

/// The `.did` parser and checker beyond the official parser tests (those run in the vector report): imports from an
/// in-memory file set, cycles, limits, positions, doc comments.
struct DIDProgramTests {
    static func load(_ files: [String: String], main: String = "main.did") throws(CandidTextError) -> DIDProgram {
        try DIDProgram.load(path: main) { files[$0] }
    }

    @Test func importsResolveRelativeToTheImportingFile() throws {
        let program = try Self.load([
            "main.did": "import service \"lib/a.did\";\ntype M = record { a : A };\nservice : { m : (M) -> () }",
            "lib/a.did": "import \"../shared/b.did\";\ntype A = record { b : B };\nservice : { a : () -> (A) query }",
            "shared/b.did": "type B = nat;",
        ])
        #expect(program.files == ["main.did", "shared/b.did", "lib/a.did"])
        #expect(program.definitions.map(\.name) == ["M", "B", "A"])
        #expect(program.interface.service?.methods.map(\.name) == ["m", "a"])
        #expect(try program.interface.method("a").modes == [.query])
    }

    @Test func importCyclesAreRefusedWithThePlace() {
        let files = [
            "main.did": "import \"a.did\";\ntype M = nat;",
            "a.did": "type A = nat;\nimport \"b.did\";",
            "b.did": "import \"a.did\";",
        ]
        do {
            _ = try Self.load(files)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "import cycle: a.did -> b.did -> a.did")
            #expect(error.file == "b.did")
        }
        let cyclic = ["main.did": "import \"b.did\";", "b.did": "import \"main.did\";"]
        do {
            _ = try Self.load(cyclic)
            Issue.record("expected an error")
        } catch {
            #expect(error.message == "import cycle: main.did -> b.did -> main.did")
            #expect(error.file == "b.did")
            #expect(error.line == 1)
            #expect(error.column == 1)
            #expect(error.description == "b.did:1:1: import cycle: main.did -> b.did -> main.did")
        }
    }

    @Test func aMissingImportNamesTheFileAndLine() {
        do {
            _ = try Self.load(["main.did": "type A = nat;\n  import \"gone.did\";"])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "main.did:2:3: Cannot import \"gone.did\"")
        }
    }

    @Test func syntaxHashAndAnnotationErrorsHavePositions() {
        func failure(_ text: String) -> CandidTextError? {
            do {
                _ = try DIDProgram(parsing: text, file: "x.did")
                return nil
            } catch { return error }
        }
        let collision = failure("type A = record {\n  \"字段名\" : nat;\n  1832283146 : nat;\n  \"📦🍦\" : nat };")
        #expect(collision?.candidToolText.contains("hash collision with '1_832_283_146'") == true)
        #expect(collision?.line == 2)
        let oneway = failure("type T = nat;\nservice : {\n  f : (nat) -> (nat) oneway;\n}")
        #expect(oneway?.message == "oneway function has non-unit return type")
        #expect(oneway?.line == 3)
        let twoModes = failure("service : { f : () -> () query oneway }")
        #expect(twoModes?.message == "cannot have more than one mode")
        let syntax = failure("type A = record { a : nat }\ntype B = nat;")
        #expect(syntax?.isSyntaxError == true)
        #expect(syntax?.line == 2)
        #expect(syntax?.column == 1)
        #expect(syntax?.file == "x.did")
        let badID = failure("type A = record { 4294967296 : nat };")
        #expect(badID?.message == "field id out of u32 range")
    }

    @Test func deepNestingAndHugeFilesAreRefusedNotCrashed() {
        let deep = "type A = " + String(repeating: "opt ", count: 100_000) + "nat;"
        #expect(throws: CandidTextError.self) { try DIDProgram(parsing: deep) }
        do {
            _ = try DIDProgram(parsing: deep)
        } catch {
            #expect(error.message == "types nested deeper than \(DIDParser.maximumDepth)")
        }
        let huge = String(repeating: " ", count: DIDParser.maximumBytes + 1)
        do {
            _ = try DIDProgram(parsing: huge, file: "big.did")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("over the limit of \(DIDParser.maximumBytes)"))
        }
        let unclosed = "type A = record { a : nat; /* never closed"
        #expect(throws: CandidTextError.self) { try DIDProgram(parsing: unclosed) }
    }

    @Test func docCommentsAttachToTheDeclarationBelowNotTrailingOnes() throws {
        let text = """
            // The amount.
            type Tokens = record {
              // In e8s.
              e8s : nat64; // trailing, not a doc comment
              0x2a : nat;
            };

            // Not attached: a blank line follows.

            type Memo = nat64;
            service : {
              // Moves tokens.
              transfer : (Tokens) -> (Memo);
            }
            """
        let program = try DIDProgram(parsing: text)
        #expect(program.definitions[0].docs == ["The amount."])
        guard case .record(let fields) = program.definitions[0].type else {
            throw CandidTextError(line: 0, column: 0, "")
        }
        #expect(fields.map(\.docs) == [["In e8s."], []])
        #expect(fields[1].label == .id(42))
        #expect(program.definitions[1].docs == [])
        guard case .service(let methods)? = program.actor?.body else { throw CandidTextError(line: 0, column: 0, "") }
        #expect(methods[0].docs == ["Moves tokens."])
        #expect(
            program.candidText
                == "// The amount.\ntype Tokens = record {\n  42 : nat;\n  // In e8s.\n  e8s : nat64;\n};\n"
                + "type Memo = nat64;\nservice : {\n  // Moves tokens.\n  transfer : (Tokens) -> (Memo);\n}")
    }
}
