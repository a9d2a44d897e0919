import AudioSessionTestSupport
import Foundation
import Testing

@testable import SessionctlCommands

/// An example's JSON transcript, decoded for asserting a story's key facts.
struct ExampleTranscript {
  struct Port: Decodable, Equatable {
    var portType: String
    var portName: String
    var uid: String
  }

  struct Route: Decodable, Equatable {
    var inputs: [Port]
    var outputs: [Port]

    /// `out headphones; in headsetMic`.
    var summary: String {
      var parts: [String] = []
      if !outputs.isEmpty { parts.append("out " + outputs.map(\.portType).joined(separator: ",")) }
      if !inputs.isEmpty { parts.append("in " + inputs.map(\.portType).joined(separator: ",")) }
      return parts.isEmpty ? "none" : parts.joined(separator: "; ")
    }
  }

  struct SessionState: Decodable, Equatable {
    var category: String
    var mode: String
    var options: [String]
    var active: Bool
    var playing: Bool
    var interrupted: Bool
    var ducked: Bool
    var muted: Bool
    var route: Route
    var outputMuted: Bool?
    var inputMuted: Bool?
    var otherAudioPlaying: Bool?
    var secondaryAudioShouldBeSilencedHint: Bool?
  }

  struct System: Decodable, Equatable {
    var call: Bool
    var silentSwitch: Bool
    var screenLock: Bool
    var micMuted: Bool
  }

  struct Status: Decodable, Equatable {
    var sessions: [String: SessionState]
    var system: System
  }

  struct ErrorBody: Decodable, Equatable {
    var code: String
    var rawValue: Int
    var message: String
  }

  struct Line: Decodable {
    var step: Int
    var command: String?
    var result: String?
    var error: ErrorBody?
    var session: String?
    var event: String?
    var type: String?
    var reason: String?
    var options: [String]?
    var by: String?
    var style: String?
    var source: String?
    var recommendation: String?
    var muted: Bool?
    var previousRoute: Route?
    var currentRoute: Route?
    var route: Route?
    var status: Status?
    /// A command sent to another program's player (docs/contract.md "Desktop steps").
    var player: String?
    var program: String?
    var stream: String?
    var heard: [String: Double]?

    /// A notification in one line: `music interruption began default by call`.
    var summary: String {
      var words = [session ?? "?", event ?? "?"]
      if let type { words.append(type) }
      if let source { words.append(source) }
      if let reason { words.append(reason) }
      if let style { words.append(style) }
      if let recommendation { words.append(recommendation) }
      if let muted { words.append(muted ? "muted" : "unmuted") }
      if let options { words.append("[" + options.joined(separator: ",") + "]") }
      if let by { words.append("by \(by)") }
      if let previousRoute, let currentRoute {
        words.append("(\(previousRoute.summary) -> \(currentRoute.summary))")
      }
      return words.joined(separator: " ")
    }
  }

  let name: String
  /// The transcript as printed.
  let text: [String]
  let lines: [Line]

  /// Runs `examples/NAME.yaml` with `--json` on the repository's policies.
  static func run(_ name: String) async throws -> ExampleTranscript {
    let outcome = await CLIFixtures.scenarioRun([
      "\(CLIFixtures.examples)/\(name).yaml", "--json", "--policies", CLIFixtures.policies,
    ])
    if let message = outcome.message { Issue.record("\(name) failed: \(message)") }
    let decoder = JSONDecoder()
    let lines = try outcome.lines.map { try decoder.decode(Line.self, from: Data($0.utf8)) }
    return ExampleTranscript(name: name, text: outcome.lines, lines: lines)
  }

  /// The result line of a step.
  func result(_ step: Int) -> Line? {
    lines.first { $0.step == step && $0.command != nil }
  }

  /// The number of the first step with this command text.
  func step(_ command: String) -> Int? {
    lines.first { $0.command == command }?.step
  }

  /// The notifications of a step, summarised, in posting order.
  func events(_ step: Int) -> [String] {
    lines.filter { $0.step == step && $0.event != nil }.map(\.summary)
  }

  /// Every notification of the transcript, as `step: summary`.
  var allEvents: [String] {
    lines.filter { $0.event != nil }.map { "\($0.step): \($0.summary)" }
  }

  /// The MPRIS commands a step sent, as `pause mpv`, in order.
  func sent(_ step: Int) -> [String] {
    lines.filter { $0.step == step && $0.player != nil && $0.event == nil }.map {
      "\($0.command ?? "?") \($0.program ?? "?")"
    }
  }

  /// What a step says of other programs' streams, as `mpv muted`, in order.
  func streams(_ step: Int) -> [String] {
    lines.filter { $0.step == step && $0.stream != nil }.map {
      "\($0.program ?? "?") \($0.stream ?? "?")"
    }
  }

  /// What a `heard` step heard.
  func heard(_ step: Int) -> [String: Double]? {
    lines.first { $0.step == step && $0.heard != nil }?.heard
  }

  /// The steps whose result is an error.
  var errorSteps: [Int] {
    lines.filter { $0.result == "error" }.map(\.step)
  }
}
