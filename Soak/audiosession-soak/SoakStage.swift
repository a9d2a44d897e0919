import AudioSession
import AudioSessionPulse
import AudioSessionSoak
import AudioSessionSystem
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The server configurations a soak runs on (docs/soak.md "The stage").
enum SoakServer: String, CaseIterable, Sendable {
  case pulse
  case pipewire
  case pipewireRoles = "pipewire-roles"

  var description: String {
    switch self {
    case .pulse: "PulseAudio 16"
    case .pipewire: "PipeWire 1.4 + WirePlumber 0.5, role policy off"
    case .pipewireRoles: "PipeWire 1.4 + WirePlumber 0.5, role policy on"
    }
  }
}

/// One history's desktop: a private server with a speaker, a private session bus, the
/// speaker's monitor recorded, the daemon, and the programs that run. Everything it starts it
/// stops by PID in ``stop()``.
final class SoakStage: @unchecked Sendable {
  let kind: SoakServer
  let folder: String
  let tools: SoakTools
  let material: SoakMaterial
  private(set) var server: (any PulseServerProcess)?
  private var bus: ChildProcess?
  private(set) var busAddress = ""
  private var recorder: ChildProcess?
  private var daemon: ChildProcess?
  private var watcher: ChildProcess?
  private var subscriber: ChildProcess?
  /// The running programs by name.
  private(set) var programs: [String: Running] = [:]
  var socket: String { folder + "/daemon.sock" }
  var recording: String { folder + "/speaker.raw" }
  var daemonLog: String { folder + "/daemon.log" }
  var watchLog: String { folder + "/watch.log" }
  var serverLog: String { folder + "/server-events.log" }

  /// A line in the daemon's log and the watcher's, to find an act in them.
  func mark(_ line: String) {
    for path in [daemonLog, watchLog, serverLog] {
      guard let handle = FileHandle(forWritingAtPath: path) else { continue }
      handle.seekToEndOfFile()
      handle.write(Data(("=== " + line + "\n").utf8))
      handle.closeFile()
    }
  }

  /// A program that runs: its process group, and its player's bus name once found.
  struct Running {
    let program: SoakProgram
    let child: ChildProcess
    var group: pid_t { child.pid }
    var bus: String?
  }

  init(kind: SoakServer, folder: String, tools: SoakTools, material: SoakMaterial) {
    self.kind = kind
    self.folder = folder
    self.tools = tools
    self.material = material
  }

  /// What every program of the stage is started with: the private server and bus, and a home
  /// and runtime folder of the stage's own (never the user's).
  var environment: [String: String] {
    var environment = ProcessInfo.processInfo.environment.filter {
      !$0.key.hasPrefix("PULSE_") && !$0.key.hasPrefix("PIPEWIRE_") && !$0.key.hasPrefix("DBUS_")
        && !$0.key.hasPrefix("AUDIOSESSION_") && $0.key != "XDG_RUNTIME_DIR"
    }
    if let server {
      environment["PULSE_SERVER"] = server.serverString
      if let cookie = server.cookieFile { environment["PULSE_COOKIE"] = cookie }
    }
    environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
    environment["XDG_RUNTIME_DIR"] = folder + "/runtime"
    environment["HOME"] = folder + "/home"
    environment["AUDIOSESSION_AUTOSTART"] = "0"
    return environment
  }

  // MARK: Start and stop

  /// Starts the server, the bus, the recorder and the daemon.
  func start() async throws {
    for sub in ["runtime", "home"] {
      try FileManager.default.createDirectory(
        atPath: folder + "/" + sub, withIntermediateDirectories: true,
        attributes: [.posixPermissions: 0o700])
    }
    switch kind {
    case .pulse:
      server = try PulsePrivateServer.start(modules: [
        .init("module-null-sink", arguments: try Self.speakerArguments()),
        .init("module-stream-restore"),
      ])
      let address = "unix:path=\(folder)/bus"
      bus = try ChildProcess.spawn(
        "/usr/bin/dbus-daemon",
        arguments: ["--session", "--nofork", "--nopidfile", "--address=\(address)"],
        output: .appending(folder + "/dbus.log"))
      busAddress = address
      try wait("the session bus", seconds: 10) {
        FileManager.default.fileExists(atPath: "\(self.folder)/bus")
      }
    case .pipewire, .pipewireRoles:
      let stack = try await PipeWirePrivateServer.start(rolePolicy: kind == .pipewireRoles)
      server = stack
      busAddress = "unix:path=\(stack.runtimeDirectory)/bus"
      if kind == .pipewire {
        _ = try pactl(["load-module", "module-null-sink", try Self.speakerArguments()])
      }
    }
    // pipewire-pulse may refuse a sink WirePlumber has not taken in yet ("Not supported").
    try wait("the speaker to be the default sink", seconds: 15) {
      (try? self.pactl(["set-default-sink", "speaker"])) != nil
    }
    // A microphone for the call's recording (a monitor's recording is no app's input,
    // docs/apps.md "On the server").
    _ = try pactl([
      "load-module", "module-remap-source", "master=speaker.monitor", "source_name=mic",
      "source_properties=device.description=Microphone",
    ])
    _ = try pactl(["set-default-source", "mic"])
    recorder = try ChildProcess.spawn(
      tools.parec,
      arguments: [
        "--device=speaker.monitor", "--format=s16le", "--rate=44100", "--channels=1",
        "--latency-msec=20", "--raw",
        // WirePlumber moves a capture stream to the default source when the default sink
        // changes (headphones plugged): the recording would become another program's
        // microphone, and record the wrong device.
        "--property=node.dont-move=true", "--property=node.dont-reconnect=true",
      ], environment: environment, output: .appending(recording), error: .null)
    try wait("the speaker's monitor to be recorded", seconds: 10) { self.recordedBytes > 0 }
    try startDaemon()
    // Every notification, in the daemon's words, for the evidence of a disagreement; it waits
    // for the next daemon by itself when one is killed.
    watcher = try ChildProcess.spawn(
      tools.sessionctl, arguments: ["watch", "all", "--json", "--socket", socket],
      environment: environment, output: .appending(watchLog))
    subscriber = try ChildProcess.spawn(
      tools.pactl, arguments: ["subscribe"], environment: environment,
      output: .appending(serverLog))
  }

  static func speakerArguments() throws -> String {
    try PulseModuleArguments.make(
      ["sink_name": "speaker"],
      propertyLists: [
        "sink_properties": ["device.description": "Speaker", "device.form_factor": "internal"]
      ])
  }

  /// Stops the programs, the daemon (SIGTERM: it restores what it changed), the recorder, the
  /// bus and the server, each by its PID.
  func stop() {
    for name in programs.keys.sorted() { stopProgram(name) }
    watcher?.end(SIGTERM, seconds: 2)
    watcher = nil
    subscriber?.end(SIGTERM, seconds: 2)
    subscriber = nil
    daemon?.end(SIGTERM, seconds: 5)
    daemon = nil
    recorder?.end(SIGTERM, seconds: 2)
    recorder = nil
    server?.stop()
    server = nil
    bus?.end(SIGTERM, seconds: 2)
    bus = nil
  }

  // MARK: The daemon

  func startDaemon() throws {
    daemon = try ChildProcess.spawn(
      tools.sessionctl,
      arguments: [
        "daemon", "--backend", "pulse", "--socket", socket, "--policies", tools.policies,
        "--log-level", "debug",
      ], environment: environment, output: .appending(daemonLog))
    try wait("the daemon to answer", seconds: 30) { self.status() != nil }
  }

  /// `kill -9`, then a new daemon on the same socket and state file.
  func restartDaemon() throws {
    if let daemon {
      kill(daemon.pid, SIGKILL)
      _ = daemon.waitUntilExit()
    }
    daemon = nil
    try startDaemon()
  }

  /// `sessionctl status --json`'s status object, or nil when no daemon answers.
  func status() -> JSONObject? {
    let result = Shell.run(
      tools.sessionctl, ["status", "--json", "--socket", socket], environment: environment,
      seconds: 10)
    guard result.status == 0, case .object(let reply)? = Shell.json(result.output),
      case .object(let status)? = reply["status"]
    else { return nil }
    return status
  }

  var daemonRunning: Bool { daemon?.isRunning ?? false }

  // MARK: The server

  @discardableResult
  func pactl(_ arguments: [String]) throws -> String {
    let result = Shell.run(tools.pactl, arguments, environment: environment, errors: true)
    guard result.status == 0 else {
      throw SoakFailure("pactl \(arguments.joined(separator: " ")) failed: \(result.output)")
    }
    return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The server's playback streams (`pactl -f json list sink-inputs`).
  func sinkInputs() -> [JSONObject] {
    let result = Shell.run(
      tools.pactl, ["-f", "json", "list", "sink-inputs"], environment: environment)
    guard case .array(let items)? = Shell.json(result.output) else { return [] }
    return items.compactMap {
      guard case .object(let object) = $0 else { return nil }
      return object
    }
  }

  /// The bytes recorded so far.
  var recordedBytes: Int {
    var info = stat()
    return stat(recording, &info) == 0 ? Int(info.st_size) : 0
  }

  /// Waits (at most `seconds`) for `condition`.
  func wait(_ what: String, seconds: Double, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
      guard Date() < deadline else { throw SoakFailure("timed out waiting for \(what)") }
      guard soakInterrupted == 0 else { throw SoakFailure("interrupted") }
      usleep(50_000)
    }
  }

  // MARK: Programs

  func startProgram(_ name: String) throws {
    guard let program = SoakProgram.named(name) else { throw SoakFailure("no program \(name)") }
    var environment = self.environment
    let child: ChildProcess
    switch program.kind {
    case .mpv:
      environment["PULSE_PROP"] = program.role.map { "media.role=\($0)" }
      child = try ChildProcess.spawn(
        tools.mpv,
        arguments: [
          "--no-config", "--no-video", "--no-terminal", "--ao=pulse", "--loop-file=inf",
          "--script=\(tools.mprisPlugin)", material.wav(program),
        ], environment: environment, output: .appending(folder + "/\(name).log"),
        newProcessGroup: true)
    case .pacat, .call:
      child = try ChildProcess.spawn(
        "/bin/sh", arguments: ["-c", pacatScript(program)], environment: environment,
        output: .appending(folder + "/\(name).log"), newProcessGroup: true)
    case .chromium:
      child = try ChildProcess.spawn(
        tools.chromium,
        arguments: [
          "--headless=new", "--no-sandbox", "--autoplay-policy=no-user-gesture-required",
          "--user-data-dir=\(folder)/chromium-\(name)", "--no-first-run", "--disable-gpu",
          "file://" + material.page(for: program),
        ], environment: environment, output: .appending(folder + "/\(name).log"),
        newProcessGroup: true)
    case .speech:
      child = try ChildProcess.spawn(
        tools.espeak, arguments: ["-a", "20", "-f", material.text], environment: environment,
        output: .appending(folder + "/\(name).log"), newProcessGroup: true)
    }
    programs[name] = Running(program: program, child: child, bus: nil)
  }

  /// The shell line of a pacat program: its tone looped into `pacat` with its properties; a
  /// call also records the microphone, in the same process group.
  func pacatScript(_ program: SoakProgram) -> String {
    var properties = ["--client-name=\(program.appName ?? program.name)"]
    if let role = program.role { properties.append("--property=media.role=\(role)") }
    if let app = program.appName { properties.append("--property=application.name=\(app)") }
    let format = "--raw --format=s16le --rate=44100 --channels=1"
    let flags = properties.map { "'\($0)'" }.joined(separator: " ")
    let play =
      "while :; do cat '\(material.raw(program))' || exit; done | "
      + "exec '\(tools.pacat)' --playback \(format) --latency-msec=400 \(flags)"
    guard program.kind == .call else { return play }
    return "'\(tools.pacat)' --record \(format) \(flags) > /dev/null & \(play)"
  }

  func stopProgram(_ name: String) {
    guard let running = programs.removeValue(forKey: name) else { return }
    Shell.endGroup(running.group, child: running.child, signal: SIGTERM)
  }

  /// Whether the program's stream is on the server: a sink input of a process of its group.
  func hasStream(_ name: String, in inputs: [JSONObject]) -> Bool {
    guard let running = programs[name] else { return false }
    return inputs.contains { input in
      guard case .object(let properties)? = input["properties"],
        case .string(let pid)? = properties["application.process.id"], let pid = Int(pid)
      else { return false }
      return Shell.processGroup(of: pid) == Int(running.group)
    }
  }

  /// The player's bus name of a program with one (found by the process that owns it).
  func playerBus(_ name: String) -> String? {
    guard var running = programs[name] else { return nil }
    if let bus = running.bus { return bus }
    for bus in mprisNames() where owner(of: bus) == Int(running.child.pid) {
      running.bus = bus
      programs[name] = running
      return bus
    }
    return nil
  }

  func mprisNames() -> [String] {
    let result = Shell.run(
      tools.dbusSend,
      [
        "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus.ListNames",
      ], environment: environment)
    return result.output.split(separator: "\n").compactMap { line in
      let parts = line.split(separator: "\"")
      guard parts.count >= 2, parts[1].hasPrefix("org.mpris.MediaPlayer2.") else { return nil }
      return String(parts[1])
    }
  }

  func owner(of bus: String) -> Int? {
    let result = Shell.run(
      tools.dbusSend,
      [
        "--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus",
        "org.freedesktop.DBus.GetConnectionUnixProcessID", "string:\(bus)",
      ], environment: environment)
    return result.output.split(separator: " ").last.flatMap {
      Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
  }

  /// The user's `playerctl -p NAME pause|play`, with every other player ignored (`-p mpv`
  /// alone would also match `mpv.instance…`; and `-i mpv` would ignore `mpv.instance…` too, so
  /// a name ours starts with is not ignored). When playerctl finds no player (a player it does
  /// not list at that moment), the same method call goes to the player's bus name with
  /// `dbus-send`, as playerctl makes it.
  func userCommand(_ name: String, _ command: String) throws {
    guard let bus = playerBus(name) else { throw SoakFailure("\(name) has no player on the bus") }
    let prefix = "org.mpris.MediaPlayer2."
    let own = String(bus.dropFirst(prefix.count))
    let others = mprisNames().filter { $0 != bus }.map { String($0.dropFirst(prefix.count)) }
      .filter { !own.hasPrefix($0 + ".") && !$0.hasPrefix(own + ".") }
    var arguments = ["--player=\(own)"]
    if !others.isEmpty { arguments.append("--ignore-player=\(others.joined(separator: ","))") }
    var result = Shell.Result(status: nil, output: "")
    for attempt in 0..<3 {
      if attempt > 0 { Shell.pause(milliseconds: 300) }
      result = Shell.run(
        tools.playerctl, arguments + [command], environment: environment, errors: true)
      if result.status == 0 { return }
    }
    let method = command == "pause" ? "Pause" : "Play"
    let sent = Shell.run(
      tools.dbusSend,
      [
        "--session", "--type=method_call", "--dest=\(bus)", "/org/mpris/MediaPlayer2",
        "org.mpris.MediaPlayer2.Player.\(method)",
      ], environment: environment, errors: true)
    guard sent.status == 0 else {
      throw SoakFailure(
        "playerctl \(arguments.joined(separator: " ")) \(command) failed: \(result.output); "
          + "dbus-send \(method) to \(bus) failed: \(sent.output)")
    }
  }

  // MARK: Headphones

  /// Plugs headphones (a second null sink, made the default: every stream moves onto it),
  /// waits until every app session's route is on them, then unloads them.
  func unplugHeadphones() throws {
    let arguments = try PulseModuleArguments.make(
      ["sink_name": "headphones"],
      propertyLists: [
        "sink_properties": [
          "device.description": "Headphones", "device.form_factor": "headphone",
          "device.bus": "pci",
        ]
      ])
    let module = try pactl(["load-module", "module-null-sink", arguments])
    try pactl(["set-default-sink", "headphones"])
    try? wait("every session on the headphones", seconds: 8) {
      guard case .object(let sessions)? = self.status()?["sessions"] else { return false }
      return sessions.members.allSatisfy { member in
        guard case .object(let session) = member.value, case .object(let route)? = session["route"]
        else { return false }
        return route.serialized.contains("\"headphones\"")
      }
    }
    try pactl(["unload-module", module])
    _ = try? pactl(["set-default-sink", "speaker"])
  }
}

/// What went wrong in the soak tool's own work (a program that would not start, a server that
/// did not answer): not a disagreement.
struct SoakFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

/// Where the programs the soak runs are.
struct SoakTools: Sendable {
  var sessionctl: String
  var policies: String
  var pactl = "/usr/bin/pactl"
  var parec = "/usr/bin/parec"
  var pacat = "/usr/bin/pacat"
  var mpv = "/usr/bin/mpv"
  var mprisPlugin = "/usr/lib/mpv-mpris/mpris.so"
  var chromium = "/usr/bin/chromium"
  var espeak = "/usr/bin/espeak-ng"
  var playerctl = "/usr/bin/playerctl"
  var dbusSend = "/usr/bin/dbus-send"

  /// The missing ones, with the package that installs each.
  var missing: [String] {
    [
      (pactl, "pulseaudio-utils"), (parec, "pulseaudio-utils"), (pacat, "pulseaudio-utils"),
      (mpv, "mpv"), (mprisPlugin, "mpv-mpris"), (chromium, "chromium"), (espeak, "espeak-ng"),
      (playerctl, "playerctl"), (dbusSend, "dbus"), (sessionctl, "swift build"),
    ].filter { !FileManager.default.fileExists(atPath: $0.0) }.map { "\($0.0) (\($0.1))" }
  }
}
