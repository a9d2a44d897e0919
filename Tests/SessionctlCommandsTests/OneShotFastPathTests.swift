import ArgumentParser
import AudioSession
import PropertyBased
import Testing

@testable import SessionctlCommands

// docs/contract.md "Commands" and docs/modules.md "What sessionctl links": the simplest live
// commands are read without ArgumentParser (docs/modules.md "What `sessionctl` links"); what that
// fast path reads, it must read exactly as ArgumentParser does, and what it cannot, it leaves to
// ArgumentParser.
@Suite struct OneShotFastPathTests {
  /// Words a command line is made of: the fast path's flags, values of every kind (ordinary,
  /// empty, starting with `-`, a command's name, numbers in and out of `--timeout`'s range,
  /// names good and bad), and forms it leaves to ArgumentParser.
  static let words = [
    "--json", "--notify-others", "--session", "--socket", "--timeout", "music", "a b", "-x", "",
    "0", "0.5", "2", "1e3", "99999", "nan", "inf", "status", "default", "/tmp/x.sock",
    "--socket=/tmp/y.sock", "--session=music", "--help", "-h", "--", "--mode", "--unknown",
    "playback", "playAndRecord", "ambient", "Playback", "--options", "--policy", "moviePlayback",
    "spokenAudio", "nosuch", "mixWithOthers,duckOthers", "allowBluetooth", "mixWithOthers,,",
    "longFormAudio", "independent", "-1", "-0.5", "-.5", "input-gain",
  ]

  /// Options given before the command, which the command line moves after it
  /// (``CommandLineWords``), as well-formed pairs and as mistakes.
  static let leading: [[String]] = [
    ["--socket", "/tmp/x.sock"], ["--timeout", "2"], ["--timeout", "-1"], ["--json"],
    ["--session", "music"], ["--socket=/tmp/y.sock"], ["--session"], ["--help"],
  ]

  /// Options with a value after them, so that well-formed pairs are common (a random pair of
  /// words rarely is one).
  static let pairs: [[String]] = {
    let values = [
      "--session": ["music", "status", "-x", "", "default"],
      "--socket": ["/tmp/x.sock", "", "-x"],
      "--timeout": ["0.5", "0", "nan", "2"],
      "--mode": ["moviePlayback", "voiceChat", "nosuch", "default"],
      "--options": ["mixWithOthers,duckOthers", "allowBluetooth", "mixWithOthers,nosuch", ""],
      "--policy": ["longFormAudio", "independent", "default", "nosuch"],
    ]
    return values.keys.sorted().flatMap { option in
      values[option, default: []].map { [option, $0] }
    }
  }()

  static let chunks = words.map { [$0] } + pairs

  /// `set` more often than the others: its lines need a category as well as their options.
  static let names =
    OneShotRequest.fastCommands + ["set", "set", "set", "simulate", "watch", "help", "--json"]

  /// Categories, good and bad, put anywhere in a line.
  static let categories = ["playback", "ambient", "playAndRecord", "record", "Playback", "nosuch"]

  static func parsedByArgumentParser(_ arguments: [String]) throws -> OneShotRequest? {
    let parsed = try Sessionctl.parseAsRoot(arguments)
    return (parsed as? any LiveCommand).map(OneShotRequest.init)
  }

  @Test(
    "a command line the fast path reads, ArgumentParser reads to the same request, options before the command and negative numbers included (docs/modules.md, docs/contract.md Commands)"
  )
  func fastPath_randomCommandLines_agreeWithArgumentParser() async {
    let name = Gen<String?>.element(of: Self.names).compactMap { $0 }
    let category = Gen<Int>.int(in: 0...Self.categories.count)
    let position = Gen<Int>.int(in: 0...4)
    let rest = Gen<[String]?>.element(of: Self.chunks).compactMap { $0 }.array(of: 0...4)
    let lead = Gen<[String]?>.element(of: Self.leading).compactMap { $0 }.array(of: 0...2)
    await propertyCheck(count: 4000, input: name, category, position, rest, lead) {
      name, category, position, rest, lead in
      var chunks = rest
      if category < Self.categories.count {
        chunks.insert([Self.categories[category]], at: min(position, chunks.count))
      }
      // As `SessionctlMain` reads it, for both parsers.
      let arguments = CommandLineWords.normalized(lead.joined() + [name] + chunks.joined())
      guard let fast = OneShotRequest(arguments: arguments) else { return }
      #expect(
        (try? Self.parsedByArgumentParser(arguments)) == fast,
        "fast path and ArgumentParser disagree on \(arguments)")
    }
  }

  @Test(
    "the fast path reads each of its commands in the forms the docs show, as ArgumentParser does",
    arguments: [
      ["status"], ["status", "--json"], ["status", "--socket", "/tmp/a.sock"],
      ["status", "--timeout", "0.5", "--json", "--socket", "/tmp/a.sock"],
      ["devices"], ["devices", "--json"], ["route"], ["route", "--session", "nav", "--json"],
      ["activate", "--session", "music"], ["play", "--session", "music"],
      ["stop", "--session", "music"], ["remove", "--session", "music"],
      ["deactivate", "--session", "music"],
      ["deactivate", "--notify-others", "--session", "podcast"],
      ["activate"], ["set", "playback"], ["set", "ambient", "--session", "music"],
      ["set", "--session", "movie", "playback", "--mode", "moviePlayback"],
      ["set", "playAndRecord", "--mode", "voiceChat", "--options", "allowBluetooth,duckOthers"],
      ["set", "playback", "--policy", "longFormAudio", "--mode", "spokenAudio"],
      [
        "set", "playback", "--options", "mixWithOthers", "--socket", "/tmp/a.sock", "--timeout",
        "2",
      ],
    ])
  func fastPath_documentedForms_read(arguments: [String]) throws {
    let fast = try #require(OneShotRequest(arguments: arguments))
    #expect(try Self.parsedByArgumentParser(arguments) == fast)
  }

  @Test(
    "what the fast path leaves to ArgumentParser: help, mistakes, other commands, the = form, repeats",
    arguments: [
      ["status", "--help"], ["status", "-h"], ["status", "--jsn"], ["status", "--session", "a"],
      ["status", "--socket=/tmp/a.sock"], ["status", "--json", "--json"],
      ["status", "--socket", "/a", "--socket", "/b"], ["status", "--timeout", "0"],
      ["status", "--timeout", "x"], ["status", "--socket"], ["play", "--session", "status"],
      ["play", "--session", ""], ["play", "--session", "-x"], ["play", "music"],
      ["set"], ["set", "nosuch"], ["set", "playback", "ambient"],
      ["set", "playback", "--mode", "x"],
      ["set", "playback", "--options", "mixWithOthers,nosuch"],
      ["set", "playback", "--policy", "y"],
      ["set", "playback", "--mode"], ["set", "--help"], ["simulate", "plug", "headphones"],
      ["help", "status"], [],
    ])
  func fastPath_otherCommandLines_leftToArgumentParser(arguments: [String]) {
    #expect(OneShotRequest(arguments: arguments) == nil)
  }
}
