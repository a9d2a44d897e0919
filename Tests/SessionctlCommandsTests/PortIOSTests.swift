import AudioSessionTestSupport
import Foundation
import Testing

@testable import SessionctlCommands

/// `sessionctl port-ios`: the rewrite, as text, and the command on files (docs/ios-compat.md
/// "Selectors").
@Suite struct PortIOSTests {
  @Test(
    "port-ios deletes @objc, @objcMembers and dynamic, and makes #selector a method Selector (docs/ios-compat.md Selectors)"
  )
  func rewrite_objcAndSelectors_becomeWhatCompiles() {
    let result = IOSPort.rewrite(
      """
      @objcMembers final class P: NSObject {
        @objc dynamic var volume = 1.0
        @objc(handle:)
        func handle(_ n: Notification) {}
        func go() {
          center.addObserver(self, selector: #selector(handle(_:)), name: n, object: nil)
          center.addObserver(self, selector: #selector(self.go), name: n, object: nil)
          center.addObserver(self, selector: #selector(P.handle(_:)), name: n, object: nil)
        }
      }
      """)
    #expect(
      result.text == """
        final class P: NSObject {
          var volume = 1.0
          func handle(_ n: Notification) {}
          func go() {
            center.addObserver(self, selector: Selector(Self.handle(_:)), name: n, object: nil)
            center.addObserver(self, selector: Selector(Self.go), name: n, object: nil)
            center.addObserver(self, selector: Selector(P.handle(_:)), name: n, object: nil)
          }
        }
        """)
    #expect(result.notes.isEmpty && result.changed)
  }

  @Test(
    "port-ios touches nothing else: strings, comments, a name 'dynamic', a property's selector (docs/ios-compat.md Selectors)"
  )
  func rewrite_otherText_isKept() {
    let source = """
      let dynamic = "@objc #selector(x) dynamic var"  // @objc #selector(y)
      /* @objc /* nested */ dynamic func */
      let raw = #"say "#selector(z)" @objc"#
      let key = #selector(getter: P.volume)
      let multi = \"\"\"
        @objc dynamic var
        \"\"\"
      """
    let result = IOSPort.rewrite(source)
    #expect(result.text == source)
    #expect(!result.changed)
    #expect(
      result.notes == [
        "line 4: left '#selector(getter: P.volume)': a property's selector has no method to call here"
      ])
  }

  @Test(
    "port-ios rewrites files in place, folders included, or prints with --stdout; bad paths are errors (docs/ios-compat.md Selectors, docs/contract.md Bad input)"
  )
  func command_files_rewrittenOrPrinted() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "port-ios-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
      at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let original = "@objc func f() {}\nlet s = #selector(f)\n"
    let file = folder.appendingPathComponent("sub/A.swift")
    try original.write(to: file, atomically: true, encoding: .utf8)
    try "not swift".write(
      to: folder.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)

    let printed = try SessionctlProcess.run(["port-ios", "--stdout", folder.path])
    #expect(printed.status == 0)
    #expect(printed.lines == ["func f() {}", "let s = Selector(Self.f)"])
    #expect(try String(contentsOf: file, encoding: .utf8) == original)

    let ported = try SessionctlProcess.run(["port-ios", folder.path])
    #expect(ported.lines == ["ported \(folder.path)/sub/A.swift"])
    #expect(
      try String(contentsOf: file, encoding: .utf8) == "func f() {}\nlet s = Selector(Self.f)\n")
    let again = try SessionctlProcess.run(["port-ios", file.path])
    #expect(again.status == 0 && again.lines.isEmpty)

    let missing = try SessionctlProcess.run(["port-ios", folder.path + "/nope.swift"])
    #expect(missing.status != 0 && missing.error.contains("no such file or folder"))
    let text = try SessionctlProcess.run(["port-ios", folder.path + "/notes.txt"])
    #expect(text.status != 0 && text.error.contains("is not a Swift file"))
  }
}
