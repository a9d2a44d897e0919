// The clients' requests, as the commands of scenario steps (docs/contract.md "Recording what
// the daemon saw").
import AudioSession
import AudioSessionWire

extension DesktopRecorder {
  mutating func requested(
    _ request: DaemonRequest, from id: ConnectionID,
    performed: Result<SimulationOutcome, SessionError>?, effects: [ArbiterEffect]
  ) {
    var answer: ArbiterReply?
    for case .reply(let to, let reply) in effects where to == id { answer = reply }
    guard let answer else { return }
    switch request.operation {
    case .open(let session), .follow(let session):
      guard case .ready(let reply) = answer, reply.error == nil else { return }
      if case .follow = request.operation {
        note(
          "'\(session)' follows the streams of the program 'sessionctl run' started, which the "
            + "replay does not act out: the replay's '\(session)' is a session of its own")
      }
      clientSessions[id, default: []].append(session)
      // The session exists from here on, unconfigured, as the library's `open` makes it.
      emit(.command(session: session, words: ["route"]))
      configure(session, SessionConfiguration())
      clientsChanged()
    case .command(let command):
      guard !command.isQuery, case .command(_, let result) = answer else { return }
      commanded(command, result: result, performed: performed, from: id)
    case .hello, .session, .watch, .explain, .record:
      return
    }
  }

  private mutating func commanded(
    _ command: Command, result: CommandResult,
    performed: Result<SimulationOutcome, SessionError>?, from id: ConnectionID
  ) {
    guard let (session, words) = Self.words(of: command) else {
      note("the command '\(command.stepText)' has no step: the replay leaves it out")
      return
    }
    if let error = result.error {
      // Refused, it changed nothing: replayed when the replay refuses it too (the session was
      // there to refuse it), else told.
      let text = ([session].compactMap { $0 } + words).joined(separator: " ")
      if case .simulate = command {
        emit(.comment, comment: "refused: \(text): \(error.code.name): \(error.message)")
      } else if result.session == nil {
        emit(.comment, comment: "refused: \(text): \(error.code.name): \(error.message)")
      } else {
        emit(.command(session: session, words: words))
      }
      return
    }
    let outcome = (try? performed?.get())?.inputs ?? []
    switch command {
    case .simulate(.plug):
      for case .deviceConnected(let device) in outcome { plugged(device) }
      return
    case .simulate(.unplug):
      for case .deviceDisconnected(let uid) in outcome { unplugged(uid) }
      return
    case .simulate(.serverRestart):
      // Its two facts, with the players' streams closed between them, as for a server that
      // died and came back by itself.
      lostServer()
      resetServer()
      return
    case .simulate(.mediaServices(let lost)):
      if lost { lostServer() } else { resetServer() }
      return
    case .input(.setPreferredInput(let name, let uid?)):
      // A port of this desktop's: the replay's have other UIDs.
      emit(
        .comment,
        comment: "\(name) prefer input \(uid): a port of this desktop, which the replay has not")
      return
    default:
      emit(.command(session: session, words: words))
    }
    switch command {
    case .input(.removeSession(let name)):
      configure(name, nil)
      if var sessions = clientSessions[id], sessions.contains(name) {
        sessions.removeAll { $0 == name }
        clientSessions[id] = sessions
        clientsChanged()
      }
    default:
      guard let name = command.session, let status = result.session,
        clientSessions.values.contains(where: { $0.contains(name) })
      else { return }
      configure(name, status.configuration)
    }
  }

  /// A command as a step's words, with the session it acts on apart; nil for one no step
  /// gives (an engine input no command line makes).
  static func words(of command: Command) -> (session: String?, words: [String])? {
    switch command {
    case .input(let input): words(of: input)
    case .simulate(let action): (nil, ["simulate"] + words(of: action))
    case .status, .route, .devices: nil
    }
  }

  private static func onOff(_ on: Bool) -> String { on ? "on" : "off" }

  private static func words(of input: EngineInput) -> (session: String?, words: [String])? {
    switch input {
    case .setCategory(let session, let category, let mode, let options, let policy):
      var words = ["set", category.name]
      if let mode { words += ["--mode", mode.name] }
      if policy != .default { words += ["--policy", policy.name] }
      let names = Policy.explicitNames(options).named.map(\.name)
      if !names.isEmpty { words += ["--options", names.joined(separator: ",")] }
      return (session, words)
    case .setMode(let session, let mode): return (session, ["mode", mode.name])
    case .setActive(let session, true, _): return (session, ["activate"])
    case .setActive(let session, false, let options):
      return (
        session,
        ["deactivate"] + (options.contains(.notifyOthersOnDeactivation) ? ["--notify-others"] : [])
      )
    case .startIO(let session): return (session, ["play"])
    case .stopIO(let session): return (session, ["stop"])
    case .overrideOutput(let session, let value): return (session, ["override", value.name])
    case .setPreferredInput(let session, let uid):
      return (session, ["prefer", "input", uid ?? "none"])
    case .removeSession(let session): return (session, ["remove"])
    case .setAppState(let session, let state): return (session, ["app-state", state.name])
    case .setNowPlaying(let session, let on): return (session, ["now-playing", onOff(on)])
    case .setPreference(let session, let preference):
      return (session, ["prefer", preference.key, preference.valueText])
    case .setInputGain(let session, let gain):
      return (session, ["input-gain", SessionPreference.number(gain)])
    case .setDataSource(let session, let name): return (session, ["data-source", name])
    case .setPolarPattern(let session, let source, let pattern):
      return (session, ["polar-pattern", source, pattern?.name ?? "none"])
    case .setOutputMuted(let session, let muted): return (session, ["output-muted", onOff(muted)])
    case .setInputMuted(let session, let muted): return (session, ["input-muted", onOff(muted)])
    default: return nil
    }
  }

  private static func words(of action: SimulationAction) -> [String] {
    switch action {
    case .plug(let preset): ["plug", preset]
    case .unplug(let device): ["unplug", device]
    case .call(let active): ["call", active ? "begin" : "end"]
    case .callRing(let style): ["call", "ring", "--style", style.name]
    case .silentSwitch(let on): ["silent", onOff(on)]
    case .screenLock(let on): ["lock", onOff(on)]
    case .micMute(let on): ["mic-mute", onOff(on)]
    case .serverRestart: ["server-restart"]
    case .mediaServices(let lost): ["media-services", lost ? "lost" : "reset"]
    case .siri(let active): ["siri", active ? "begin" : "end"]
    case .alarm(let active): ["alarm", active ? "begin" : "end"]
    case .volume(let volume): ["volume", SessionPreference.number(volume)]
    case .recordPermission(let permission): ["permission", permission.name]
    }
  }
}
