import AudioSessionTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// `make install` and `make uninstall` (docs/install.md; policies/README.md, "Where the policies
/// are found"): an installed sessionctl needs nothing of the source checkout.
///
/// The Makefile's `install-files` target is what `make install` runs after `make release`; the
/// tests give it the debug binary (the install logic is the same) instead of building for release.
@Suite(.serialized) struct InstallTests {
  /// A fresh folder with a short path (the daemon's socket goes in it), removed at the end.
  final class Folder {
    let path: String

    init() throws { path = try TemporaryFolder.make() }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func make(_ relative: String) throws -> String {
      let made = path + "/" + relative
      try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
      return made
    }
  }

  /// `make -C <checkout> TARGET VARIABLES…`.
  static func make(_ target: String, _ variables: [String: String]) throws
    -> SessionctlProcess.Run
  {
    let assignments = variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
    return try SessionctlProcess.run(
      ["--no-print-directory", "-C", Repository.root, target] + assignments,
      program: "/usr/bin/make")
  }

  /// Every regular file under `root`, relative to it, sorted.
  static func files(under root: String) -> [String] {
    guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
    var found: [String] = []
    while let relative = walker.nextObject() as? String {
      var isDirectory: ObjCBool = false
      if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory),
        !isDirectory.boolValue
      {
        found.append(relative)
      }
    }
    return found.sorted()
  }

  /// The environment of a user who has none of the checkout's settings: no policy variable, a
  /// home with no `~/.config/audiosession`, no socket override, no autostarted daemon.
  static func userEnvironment(home: String) -> (set: [String: String], unset: [String]) {
    (
      ["HOME": home, "AUDIOSESSION_AUTOSTART": "0"],
      ["AUDIOSESSION_POLICIES", "XDG_CONFIG_HOME", "AUDIOSESSION_SOCKET"]
    )
  }

  @Test(
    """
    make install-files DESTDIR=… PREFIX=/usr places the binary, policies, unit, manual and \
    completions; run from outside the checkout, the installed sessionctl shows its installed \
    policies, replays a scenario and serves a daemon round trip; make uninstall removes it all \
    (docs/install.md)
    """
  )
  func install_thenRunFromOutside_thenUninstall() throws {
    let folder = try Folder()
    let stage = folder.path + "/stage"
    let home = try folder.make("home")
    let work = try folder.make("work")
    // A policies/ folder in the current directory that is not a policy directory: it must not be
    // picked up (the current directory is not searched).
    _ = try folder.make("work/policies")
    // The manual page the release build makes with swift-argument-parser's generator; here a
    // page of our own, which install-files must install unchanged.
    let manual = folder.path + "/sessionctl.1"
    let manualText = ".Dd January 1, 2026\n.Dt SESSIONCTL 1\n.Sh NAME\n.Nm sessionctl\n"
    try manualText.write(toFile: manual, atomically: true, encoding: .utf8)
    let daemonManual = folder.path + "/audiosessiond.1"
    try manualText.replacingOccurrences(of: "sessionctl", with: "audiosessiond")
      .replacingOccurrences(
        of: "SESSIONCTL", with: "AUDIOSESSIOND"
      ).write(toFile: daemonManual, atomically: true, encoding: .utf8)
    let variables = [
      "DESTDIR": stage, "PREFIX": "/usr", "SESSIONCTL_BINARY": SessionctlProcess.executable,
      "SESSIONCTL_MANUAL": manual, "AUDIOSESSIOND_MANUAL": daemonManual,
    ]

    let install = try Self.make("install-files", variables)
    try #require(install.status == 0, "make install-files failed: \(install.error)")

    let policyFiles = try FileManager.default.contentsOfDirectory(atPath: Repository.policies)
    let expected =
      [
        "usr/bin/audiosessiond", "usr/bin/sessionctl",
        "usr/lib/systemd/user/audiosession.service",
        "usr/share/bash-completion/completions/sessionctl",
        "usr/share/fish/vendor_completions.d/sessionctl.fish",
        "usr/share/man/man1/audiosessiond.1", "usr/share/man/man1/sessionctl.1",
        "usr/share/zsh/site-functions/_sessionctl",
      ] + policyFiles.map { "usr/share/audiosession/policies/" + $0 }
    #expect(Self.files(under: stage) == expected.sorted())
    #expect(
      try String(contentsOfFile: stage + "/usr/share/man/man1/sessionctl.1", encoding: .utf8)
        == manualText)
    let unit = try String(
      contentsOfFile: stage + "/usr/lib/systemd/user/audiosession.service", encoding: .utf8)
    #expect(
      unit.split(separator: "\n").filter { $0.hasPrefix("ExecStart=") }
        == ["ExecStart=/usr/bin/audiosessiond --backend pulse"],
      "the unit names the installed binary, without DESTDIR")
    let bash = try String(
      contentsOfFile: stage + "/usr/share/bash-completion/completions/sessionctl",
      encoding: .utf8)
    #expect(bash.contains("complete") && bash.contains("scenario") && bash.contains("daemon"))

    let installed = stage + "/usr/bin/sessionctl"
    let (environment, unset) = Self.userEnvironment(home: home)
    func run(_ arguments: [String]) throws -> SessionctlProcess.Run {
      try SessionctlProcess.run(
        arguments, environment: environment, program: installed, directory: work, unset: unset)
    }

    // policy show: the installed directory, found beside the binary, not the checkout's.
    let show = try run(["policy", "show"])
    #expect(show.status == 0, "\(show.error)")
    #expect(show.lines.first == "Policy directory: \(stage)/usr/share/audiosession/policies")

    // A scenario, copied out of the checkout, replays to its golden transcript.
    let scenario = work + "/music-and-call.yaml"
    try FileManager.default.copyItem(
      atPath: CLIFixtures.examples + "/music-and-call.yaml", toPath: scenario)
    let replay = try run(["scenario", "run", "music-and-call.yaml", "--json"])
    #expect(replay.status == 0, "\(replay.error)")
    #expect(
      replay.output
        == (try String(
          contentsOfFile: CLIFixtures.examples + "/music-and-call.jsonl", encoding: .utf8)))

    // A daemon round trip on a private socket.
    let socket = folder.path + "/s.sock"
    let daemon = try SessionctlProcess.launch(
      ["daemon", "--backend", "simulated", "--socket", socket], environment: environment,
      program: installed, directory: work, unset: unset)
    let started = SessionctlProcess.readLine(daemon.error)
    #expect(
      started?.contains("policies \(stage)/usr/share/audiosession/policies") == true,
      "\(started ?? "the daemon said nothing")")
    #expect(try run(["set", "playback", "--session", "music", "--socket", socket]).status == 0)
    #expect(try run(["activate", "--session", "music", "--socket", socket]).status == 0)
    let status = try run(["status", "--json", "--socket", socket])
    kill(daemon.process.processIdentifier, SIGTERM)
    daemon.process.waitUntilExit()
    #expect(status.status == 0, "\(status.error)")
    let json = try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any]
    let sessions = (json?["status"] as? [String: Any])?["sessions"] as? [String: Any]
    let music = sessions?["music"] as? [String: Any]
    #expect(music?["category"] as? String == "playback")
    #expect(music?["active"] as? Bool == true)

    let uninstall = try Self.make("uninstall", ["DESTDIR": stage, "PREFIX": "/usr"])
    #expect(uninstall.status == 0, "\(uninstall.error)")
    #expect(Self.files(under: stage) == [], "make uninstall left installed files behind")
    #expect(!FileManager.default.fileExists(atPath: stage + "/usr/share/audiosession"))
  }

  @Test(
    """
    an installed sessionctl without its policies says every place it looked, and does not fall \
    back to the source checkout that still exists (policies/README.md)
    """
  )
  func installedWithoutPolicies_listsEveryPlace_andIgnoresTheCheckout() throws {
    let folder = try Folder()
    let home = try folder.make("home")
    let binary = try folder.make("bare/bin") + "/sessionctl"
    try FileManager.default.copyItem(atPath: SessionctlProcess.executable, toPath: binary)
    let (environment, unset) = Self.userEnvironment(home: home)
    let show = try SessionctlProcess.run(
      ["policy", "show"], environment: environment, program: binary, directory: folder.path,
      unset: unset)
    #expect(show.status != 0)
    let user = "\(home)/.config/audiosession/policies"
    let installed = "\(folder.path)/bare/share/audiosession/policies"
    let expected: [String] = [
      "Error: No policy directory found. Without --policies DIR, sessionctl looked in:",
      "  1. $AUDIOSESSION_POLICIES: (not set)",
      "  2. ~/.config/audiosession/policies: \(user) (no such directory)",
      "  3. installed with \(binary): \(installed) (no such directory)",
      "  4. source checkout: \(Repository.root)/policies "
        + "(only for a program run from inside that checkout)",
    ]
    let lines = show.error.split(separator: "\n").map(String.init)
    #expect(Array(lines.prefix(5)) == expected)
  }

  @Test(
    """
    a development build run from a folder holding a policies/ of its own still uses the \
    checkout's: the current directory is not searched (policies/README.md)
    """
  )
  func developmentBuild_ignoresTheCurrentDirectory() throws {
    let folder = try Folder()
    let work = try folder.make("work")
    _ = try folder.make("work/policies")
    let (environment, unset) = Self.userEnvironment(home: try folder.make("home"))
    let show = try SessionctlProcess.run(
      ["policy", "show"], environment: environment, directory: work, unset: unset)
    #expect(show.status == 0, "\(show.error)")
    #expect(show.lines.first == "Policy directory: \(Repository.root)/policies")
  }
}
