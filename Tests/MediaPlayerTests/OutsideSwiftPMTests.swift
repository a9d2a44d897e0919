import AudioSessionMPRIS
import AudioSessionMPRISPlayer
import AudioSessionTestSupport
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

  /// The build folder (`.build/debug`), where each target's objects are in `<Target>.build`.
  static var buildFolder: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
  }

  /// The sanitizer the package's objects were built with, as this test process shows it (its
  /// runtime is linked in): a program linked from those objects needs the same runtime
  /// (`make sanitize`, docs/fuzzing.md "Sanitizers").
  static var sanitizerFlags: [String] {
    let process = dlopen(nil, RTLD_NOW)
    defer { if let process { dlclose(process) } }
    if dlsym(process, "__tsan_init") != nil { return ["-sanitize=thread"] }
    if dlsym(process, "__asan_init") != nil { return ["-sanitize=address"] }
    return []
  }

  /// What a program that imports `MediaPlayer` links: the objects of the targets under it.
  static let linkedTargets = [
    "MediaPlayer", "AVFAudio", "AudioSessionClient", "AudioSessionWire", "AudioSession",
    "AudioSessionSystem", "AudioSessionMPRIS", "AudioSessionMPRISPlayer", "Logging",
  ]

  static func typecheck(_ extra: [String]) throws -> SessionctlProcess.Run {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/LockScreen.swift"
    try source.write(toFile: file, atomically: true, encoding: .utf8)
    let swiftc = try #require(swiftc, "no swiftc on PATH")
    return try SessionctlProcess.run(
      ["-typecheck", file, "-I", modules] + extra, program: swiftc)
  }

  @Test(
    "import MediaPlayer alone compiles with plain swiftc and -I on the built modules, no module map of sd-bus (docs/ios-compat.md The products)"
  )
  func mediaPlayerOnly_plainSwiftc_needsNoModuleMap() throws {
    let run = try Self.typecheck([])
    #expect(run.status == 0, "\(run.error)")
    #expect(!run.error.contains("CSDBus"))
  }
}

extension OutsideSwiftPMTests {
  @Test(
    "a program whose only import is MediaPlayer builds with plain swiftc from the modules and the targets' objects, and runs (docs/ios-compat.md The products)"
  )
  func mediaPlayerOnly_plainSwiftc_linksAndRuns() throws {
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let file = folder + "/main.swift"
    try """
    import MediaPlayer

    let session = AVAudioSession.sharedInstance()
    print(session.category.rawValue)

    """.write(toFile: file, atomically: true, encoding: .utf8)
    var objects: [String] = []
    for target in Self.linkedTargets {
      let dir = Self.buildFolder + "/\(target).build"
      let names = try FileManager.default.contentsOfDirectory(atPath: dir)
      objects += names.filter { $0.hasSuffix(".o") }.sorted().map { dir + "/" + $0 }
    }
    let program = folder + "/player"
    let swiftc = try #require(Self.swiftc, "no swiftc on PATH")
    let built = try SessionctlProcess.run(
      [file, "-I", Self.modules] + objects + Self.sanitizerFlags + ["-lsystemd", "-o", program],
      program: swiftc)
    #expect(built.status == 0, "\(built.error)")
    // No daemon: the session answers with the category it was given, soloAmbient.
    let ran = try SessionctlProcess.run(
      [], environment: ["AUDIOSESSION_SOCKET": folder + "/none.sock"], program: program)
    #expect(ran.status == 0)
    #expect(ran.lines == ["AVAudioSessionCategorySoloAmbient"])
  }

  @Test(
    "MediaPlayer's player is made through the declaration the linker joins to AudioSessionMPRIS's definition, with the arguments given (docs/ios-compat.md The products)"
  )
  func makePlayerService_declaration_reachesTheDefinition() throws {
    let made = makeMPRISPlayerService(
      busName: "org.mpris.MediaPlayer2.test.instance1", identity: "test",
      address: "unix:path=/nonexistent", state: { nil }, perform: { _ in })
    let service = try #require(made as? MPRISPlayerService)
    #expect(service.busName == "org.mpris.MediaPlayer2.test.instance1")
    #expect(service.identity == "test" && service.address == "unix:path=/nonexistent")
    #expect(!made.isServing)
  }
}
