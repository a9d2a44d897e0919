import Foundation
import Testing

/// A file whose only import is `MediaPlayer`, type-checked by a plain `swiftc` against the
/// package's built modules (docs/ios-compat.md "The products": what compiling outside SwiftPM
/// needs, and why the sd-bus module map cannot be left out).
@Suite struct OutsideSwiftPMTests {
  /// The build folder's modules: the test bundle sits beside them.
  static var modules: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("Modules").path
  }

  /// `swiftc` beside the `swift` this test was built with, else the one on PATH.
  static var swiftc: String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    return path.split(separator: ":").map { "\($0)/swiftc" }
      .first { FileManager.default.isExecutableFile(atPath: $0) }
  }

  static let source = """
    import MediaPlayer

    func publish() {
      let session = AVAudioSession.sharedInstance()
      try? session.setCategory(.playback)
      MPNowPlayingInfoCenter.default().nowPlayingInfo = [MPMediaItemPropertyTitle: "Episode 1"]
    }

    """

  static func typecheck(_ extra: [String]) throws -> SessionctlProcess.Run {
    let folder = try DaemonHarness.makeFolder()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/LockScreen.swift"
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    let swiftc = try #require(swiftc, "no swiftc on PATH")
    return try SessionctlProcess.run(
      ["-typecheck", file, "-I", modules] + extra, program: swiftc)
  }

  @Test(
    "import MediaPlayer alone needs the CSDBus module map outside SwiftPM, and compiles with it (docs/ios-compat.md The products)"
  )
  func mediaPlayerOnly_plainSwiftc_needsTheSDBusModuleMap() throws {
    let without = try Self.typecheck([])
    #expect(without.status != 0)
    #expect(without.error.contains("missing required module 'CSDBus'"))
    let map = Repository.root + "/Sources/C/CSDBus/module.modulemap"
    let with = try Self.typecheck(["-Xcc", "-fmodule-map-file=" + map])
    #expect(with.status == 0, "\(with.error)")
  }
}
