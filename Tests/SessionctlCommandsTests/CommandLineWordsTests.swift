import ArgumentParser
import AudioSession
import AudioSessionDaemonTestSupport
import AudioSessionTestSupport
import Foundation
import Testing

@testable import SessionctlCommands

/// docs/contract.md "Commands": `--version`, options before the command, and
/// negative numbers read as values and judged by their own rule.
@Suite struct CommandLineWordsTests {
  @Test("sessionctl --version prints the package version")
  func version_printsPackageVersion() throws {
    let run = try SessionctlProcess.run(["--version"])
    #expect(run.status == 0)
    #expect(run.output == PackageVersion.current + "\n")
  }

  @Test(
    "options before the command move after it; negative numbers become values",
    arguments: [
      (["--socket", "/p", "status"], ["status", "--socket", "/p"]),
      (["--socket=/p", "--json", "status"], ["status", "--socket=/p", "--json"]),
      (
        ["--timeout", "2", "--session", "m", "set", "playback"],
        ["set", "playback", "--timeout", "2", "--session", "m"]
      ),
      (
        ["--socket", "/p", "simulate", "plug", "headphones"],
        ["simulate", "plug", "headphones", "--socket", "/p"]
      ),
      (["--session", "f", "run", "--", "ls", "-l"], ["run", "--session", "f", "--", "ls", "-l"]),
      (["--socket", "/p"], ["--socket", "/p"]),
      (["--socket", "/p", "--help"], ["--socket", "/p", "--help"]),
      (["--version"], ["--version"]),
      (["input-gain", "-0.5"], ["input-gain", "--", "-0.5"]),
      (
        ["input-gain", "-0.5", "--session", "mic", "--json"],
        ["input-gain", "--session", "mic", "--json", "--", "-0.5"]
      ),
      (
        ["prefer", "--session", "v", "sampleRate", "-5"],
        ["prefer", "--session", "v", "--", "sampleRate", "-5"]
      ),
      (["status", "--timeout", "-1"], ["status", "--timeout=-1"]),
      (
        ["--socket", "/p", "prefer", "ioBufferDuration", "-.5"],
        ["prefer", "--socket", "/p", "--", "ioBufferDuration", "-.5"]
      ),
      (["run", "--", "sleep", "-1"], ["run", "--", "sleep", "-1"]),
      (["input-gain", "-x"], ["input-gain", "-x"]),
      (["input-gain", "-"], ["input-gain", "-"]),
    ])
  func normalized_commandLines(line: [String], expected: [String]) {
    #expect(CommandLineWords.normalized(line) == expected)
  }

  /// Every `--name` of an option that takes a value, in ArgumentParser's description of a
  /// command and its subcommands.
  static func valuedOptions(_ command: JSONObject) -> Set<String> {
    var names: Set<String> = []
    if case .array(let arguments)? = command["arguments"] {
      for case .object(let argument) in arguments where argument["kind"] == "option" {
        guard case .array(let argumentNames)? = argument["names"] else { continue }
        for case .object(let name) in argumentNames where name["kind"] == "long" {
          if case .string(let text)? = name["name"] { names.insert("--" + text) }
        }
      }
    }
    if case .array(let subcommands)? = command["subcommands"] {
      for case .object(let subcommand) in subcommands {
        names.formUnion(valuedOptions(subcommand))
      }
    }
    return names
  }

  @Test("the options the command line joins a negative value to are every option with a value")
  func valuedOptions_matchArgumentParser() throws {
    guard case .object(let tool) = try JSONParser.parse(Sessionctl._dumpHelp()),
      case .object(let root)? = tool["command"]
    else {
      Issue.record("ArgumentParser's description is not an object")
      return
    }
    #expect(Self.valuedOptions(root) == CommandLineWords.valuedOptions)
    #expect(
      Set(CommandLineWords.leadingOptions.filter(\.value).keys)
        .isSubset(of: CommandLineWords.valuedOptions))
  }

  @Test("global options before the subcommand reach the daemon as after it")
  func leadingOptions_reachTheDaemon() async throws {
    let daemon = try await DaemonHarness.start()
    let run = try SessionctlProcess.run(
      ["--socket", daemon.socketPath, "--timeout", "5", "--session", "lead", "set", "playback"])
    #expect(run.status == 0, "\(run.error)")
    let status = try SessionctlProcess.run(["--socket", daemon.socketPath, "--json", "status"])
    #expect(status.status == 0, "\(status.error)")
    #expect(status.output.contains(#""lead":{"category":"playback""#), "\(status.output)")
    await daemon.stop()
  }

  @Test("a negative gain is a value, clamped as setInputGain(_:) clamps it")
  func inputGain_negative_isClamped() async throws {
    let daemon = try await DaemonHarness.start()
    let set = try SessionctlProcess.run(
      ["set", "playAndRecord", "--session", "mic", "--socket", daemon.socketPath])
    #expect(set.status == 0, "\(set.error)")
    _ = try SessionctlProcess.run(["activate", "--session", "mic", "--socket", daemon.socketPath])
    let run = try SessionctlProcess.run(
      ["input-gain", "-0.5", "--session", "mic", "--socket", daemon.socketPath])
    #expect(run.status == 0, "\(run.error)")
    let status = try SessionctlProcess.run(["status", "--json", "--socket", daemon.socketPath])
    #expect(status.output.contains(#""inputGain":0.0"#), "\(status.output)")
    await daemon.stop()
  }

  @Test("a negative preference or timeout is a value, refused with its range")
  func negativeValues_refusedWithTheirRange() async throws {
    let daemon = try await DaemonHarness.start()
    let rate = try SessionctlProcess.run(
      ["prefer", "sampleRate", "-5", "--session", "v", "--socket", daemon.socketPath])
    #expect(rate.status != 0)
    #expect(!rate.error.contains("Missing expected argument"), "\(rate.error)")
    #expect(
      rate.error.contains("'sampleRate' takes a number greater than 0, not '-5'"), "\(rate.error)")
    let timeout = try SessionctlProcess.run(
      ["status", "--timeout", "-1", "--socket", daemon.socketPath])
    #expect(timeout.status != 0)
    #expect(
      timeout.error.contains(
        "--timeout must be a number of seconds greater than 0 and at most 86400"),
      "\(timeout.error)")
    await daemon.stop()
  }
}
