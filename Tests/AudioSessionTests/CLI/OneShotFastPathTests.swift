import ArgumentParser
import AudioSessionCore
import PropertyBased
import Testing

@testable import SessionctlCommands

// docs/contract.md "Commands" and docs/modules.md "What sessionctl links": the simplest live
// commands are read without ArgumentParser (issue 9 item 7); what that fast path reads, it must
// read exactly as ArgumentParser does, and what it cannot, it leaves to ArgumentParser.
@Suite struct OneShotFastPathTests {
  /// Words a command line is made of: the fast path's options and flags, values of every kind
  /// (ordinary, empty, starting with `-`, a command's name, numbers in and out of `--timeout`'s
  /// range), and forms it leaves to ArgumentParser.
  static let words = [
    "--json", "--notify-others", "--session", "--socket", "--timeout", "music", "a b", "-x", "",
    "0", "0.5", "2", "1e3", "99999", "nan", "inf", "status", "default", "/tmp/x.sock",
    "--socket=/tmp/y.sock", "--session=music", "--help", "-h", "--", "--mode", "--unknown",
  ]

  static let names = OneShotRequest.fastCommands + ["set", "simulate", "watch", "help", "--json"]

  static func parsedByArgumentParser(_ arguments: [String]) throws -> OneShotRequest? {
    let parsed = try OneShotRoot.parseAsRoot(arguments)
    return (parsed as? any LiveCommand).map(OneShotRequest.init)
  }

  @Test(
    "a command line the fast path reads, ArgumentParser reads to the same request (issue 9 item 7)")
  func fastPath_randomCommandLines_agreeWithArgumentParser() async {
    let name = Gen<String?>.element(of: Self.names).compactMap { $0 }
    let rest = Gen<String?>.element(of: Self.words).compactMap { $0 }.array(of: 0...7)
    await propertyCheck(count: 3000, input: name, rest) { name, rest in
      let arguments = [name] + rest
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
      ["activate"],
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
      ["set", "playback"], ["simulate", "plug", "headphones"], ["help", "status"], [],
    ])
  func fastPath_otherCommandLines_leftToArgumentParser(arguments: [String]) {
    #expect(OneShotRequest(arguments: arguments) == nil)
  }
}
