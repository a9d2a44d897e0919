public import AudioSession

// The `record` member of the `record` operation's reply (docs/protocol.md "Operations"), written
// by the daemon and read by `sessionctl record`, each member's name written once for both
// directions (docs/modules.md "The JSON codec").

extension DesktopRecording {
  /// The members of a record.
  enum Key {
    static let daemon = "daemon", facts = "facts", limit = "limit", cut = "cut"
    static let devices = "devices", setupSteps = "setupSteps", notes = "notes", steps = "steps"
  }

  /// The members of its `daemon` header.
  enum DaemonKey {
    static let version = "version", pid = "pid", backend = "backend", profile = "profile"
    static let server = "server", started = "started", recorded = "recorded"
  }

  /// The members of a step.
  enum StepKey {
    static let at = "at", session = "session", words = "words", comment = "comment"
    static let decided = "decided", decidedLeftOut = "decidedLeftOut"
  }

  /// `{"daemon":{…},"facts":N,"limit":N,"cut":N,"devices":[…],"setupSteps":N,"notes":[…],
  /// "steps":[{"at":MS,"session":…,"words":[…],"comment":…,"decided":[…]}]}`; `daemon` only
  /// when the shell filled it in, a step's `session`, `comment` and `decidedLeftOut` only when
  /// it has them.
  public var json: JSONObject {
    var object = JSONObject([])
    if let daemon {
      typealias Header = DaemonKey
      var header: JSONObject = [
        Header.version: .string(daemon.version), Header.pid: .int(Int(daemon.pid)),
        Header.backend: .string(daemon.backend), Header.profile: .string(daemon.profile),
      ]
      if let server = daemon.server { header.append(Header.server, .string(server)) }
      header.append(Header.started, .string(daemon.started.iso8601))
      header.append(Header.recorded, .string(daemon.recorded.iso8601))
      object.append(Key.daemon, .object(header))
    }
    object.append(Key.facts, .int(facts))
    object.append(Key.limit, .int(limit))
    object.append(Key.cut, .int(cut))
    object.append(Key.devices, .array(devices.map(JSONValue.string)))
    object.append(Key.setupSteps, .int(setupSteps))
    object.append(Key.notes, .array(notes.map(JSONValue.string)))
    object.append(Key.steps, .array(steps.map { .object($0.json) }))
    return object
  }

  /// ``json`` read back; a member missing or of the wrong kind is the error, named.
  public init(json object: JSONObject) throws(WireDecodingError) {
    let reader = WireReader(object: object, path: "record")
    let daemon = try reader.ifPresent(Key.daemon) { key throws(WireDecodingError) in
      try Daemon(json: try reader.object(key))
    }
    self.init(
      daemon: daemon, devices: try reader.strings(Key.devices),
      steps: try reader.list(Key.steps) { item throws(WireDecodingError) in
        try Step(json: item)
      },
      setupSteps: try reader.int(Key.setupSteps), facts: try reader.int(Key.facts),
      cut: try reader.int(Key.cut), limit: try reader.int(Key.limit),
      notes: try reader.strings(Key.notes))
  }
}

extension DesktopRecording.Daemon {
  init(json object: JSONObject) throws(WireDecodingError) {
    typealias Key = DesktopRecording.DaemonKey
    let reader = WireReader(object: object, path: "record.daemon")
    let pid = try reader.int(Key.pid)
    guard let pid32 = Int32(exactly: pid) else { throw reader.fail(Key.pid, "a process id") }
    func time(_ key: String) throws(WireDecodingError) -> WallTime {
      guard let time = WallTime(iso8601: try reader.string(key)) else {
        throw reader.fail(key, "a time (ISO 8601, UTC)")
      }
      return time
    }
    self.init(
      version: try reader.string(Key.version), pid: pid32, backend: try reader.string(Key.backend),
      profile: try reader.string(Key.profile), server: try reader.optionalString(Key.server),
      started: try time(Key.started), recorded: try time(Key.recorded))
  }
}

extension DesktopRecording.Step {
  var json: JSONObject {
    typealias Key = DesktopRecording.StepKey
    var object: JSONObject = [Key.at: .int(at)]
    if let session { object.append(Key.session, .string(session)) }
    object.append(Key.words, .array(words.map(JSONValue.string)))
    if let comment { object.append(Key.comment, .string(comment)) }
    object.append(Key.decided, .array(decided.map(JSONValue.string)))
    if decidedLeftOut > 0 { object.append(Key.decidedLeftOut, .int(decidedLeftOut)) }
    return object
  }

  init(json object: JSONObject) throws(WireDecodingError) {
    typealias Key = DesktopRecording.StepKey
    let reader = WireReader(object: object, path: "record.steps")
    let leftOut = try reader.ifPresent(Key.decidedLeftOut) { key throws(WireDecodingError) in
      try reader.int(key)
    }
    guard (leftOut ?? 0) >= 0 else { throw reader.fail(Key.decidedLeftOut, "0 or more") }
    self.init(
      session: try reader.optionalString(Key.session), words: try reader.strings(Key.words),
      comment: try reader.optionalString(Key.comment), decided: try reader.strings(Key.decided),
      decidedLeftOut: leftOut ?? 0, at: try reader.int(Key.at))
  }
}
