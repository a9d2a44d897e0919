import ArgumentParser
import AudioSession
import AudioSessionHost
import AudioSessionWire

extension Sessionctl {
  /// `sessionctl explain [--session NAME] [--json]`.
  struct Explain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "explain",
      abstract: "Shows the daemon's last decisions about a session, and why.",
      discussion: """
        For each of the session's last notifications (at most \(DaemonCore.historyLimit) \
        per session, oldest first), what it was told and why: the policy file and key path of \
        the rule or table cell that decided it (or, for AVAudioSession's fixed behaviour, the \
        section of docs/avaudiosession.md), the profile, the profile switch when one applied, \
        and what triggered it (a command, a program's stream, the server). Without --session, \
        every session's. With --json, one object per line: the notification as watch --json \
        prints it, with "because".
        """)

    @Option(
      name: .customLong("session"),
      help: ArgumentHelp("The session to explain (default: every session).", valueName: "name"))
    var session: String?

    @Flag(help: "Print each decision as a JSON object on its own line.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      if let session, let problem = StepParser.sessionNameProblem(session) {
        throw ValidationError(problem)
      }
    }

    func run() async throws {
      let client = try LiveClient.connect(connection)
      let reply = try LiveClient.request(
        .explain(session: session), on: client, socketPath: connection.socketPath)
      if let error = reply.error { throw LiveCommandError(error: error) }
      guard let member = reply.body.first(where: { $0.key == "decisions" }),
        case .array(let items) = member.value
      else { throw ValidationError("the daemon's explain reply has no decisions") }
      if json {
        for item in items { print(item.serialized) }
        return
      }
      var lines: [(session: String, event: String, because: String)] = []
      for case .object(let object) in items {
        var because = ""
        if case .object(let reason)? = object["because"] { because = Self.text(reason) }
        if case .object(let error)? = object["error"],
          case .string(let session)? = object["session"]
        {
          // A refused call.
          var text = "refused"
          if case .string(let code)? = error["code"] { text += ": " + code }
          if case .string(let message)? = error["message"] { text += ": " + message }
          lines.append((session, text, because))
          continue
        }
        let notification = try WireNotification.decode(object)
        lines.append(
          (notification.session, TranscriptText.event(notification.event), because))
      }
      guard !lines.isEmpty else {
        print(session.map { "no decisions about '\($0)' yet" } ?? "no decisions yet")
        return
      }
      let width = lines.map(\.session.count).max() ?? 0
      for line in lines {
        print(
          line.session + String(repeating: " ", count: width - line.session.count) + "  "
            + line.event)
        print(String(repeating: " ", count: width + 4) + line.because)
      }
    }

    /// `because interactions.json rules[0] (profile default) ← nav activate`.
    static func text(_ reason: JSONObject) -> String {
      func string(_ key: String) -> String? {
        if case .string(let value)? = reason[key] { return value }
        return nil
      }
      var document: String?
      var section: String?
      if let spec = string("spec"), let space = spec.firstIndex(of: " ") {
        document = String(spec[..<space])
        section = String(spec[spec.index(after: space)...])
      }
      let source = DecisionSource(
        policy: string("policy"), path: string("path"), switchName: string("switch"),
        spec: section, document: document)
      return TranscriptText.because(
        Because(
          source: source, profile: string("profile") ?? "?", trigger: string("trigger") ?? "?"))
    }
  }
}
