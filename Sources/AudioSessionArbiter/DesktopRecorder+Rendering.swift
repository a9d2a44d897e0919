// The kept steps written out: programs' starts as they are known now, devices by the UIDs the
// replay's simulated backend gives them.
import AudioSession

extension DesktopRecorder {
  struct Rendering {
    let recorder: DesktopRecorder
    /// The replay's UID of each device, and how many of each preset it has plugged.
    private var uids: [Int: String] = [:]
    private var plugs: [String: Int] = [:]
    /// The programs that, paused, have kept their streams uncorked to this day: they never
    /// cork.
    private let neverCork: Set<Int>
    private(set) var initialPresets: [String] = []

    init(recorder: DesktopRecorder) {
      self.recorder = recorder
      var neverCork: Set<Int> = []
      for program in recorder.programs.values
      where !program.playing && !program.liveCorked && program.status != nil {
        neverCork.insert(program.incarnation)
      }
      self.neverCork = neverCork
      for id in recorder.baseline.devices {
        guard let preset = recorder.devicePresets[id] else { continue }
        initialPresets.append(preset)
        uids[id] = uid(plugging: preset)
      }
    }

    /// The UID the simulated backend gives the next device of a preset: its fixed one, or
    /// `PRESET-N`.
    private mutating func uid(plugging preset: String) -> String {
      if let fixed = recorder.catalog.presets[preset]?.uid { return fixed }
      let count = (plugs[preset] ?? 0) + 1
      plugs[preset] = count
      return "\(preset)-\(count)"
    }

    /// What the replay sets up before its daemon starts: the sessions the daemon held, then,
    /// with the daemon stopped, the programs that ran; none when the daemon found nothing.
    mutating func setupSteps() -> [DesktopRecording.Step] {
      let baseline = recorder.baseline
      guard !baseline.sessions.isEmpty || !baseline.programs.isEmpty else { return [] }
      var steps: [DesktopRecording.Step] = []
      for (name, configuration) in baseline.sessions {
        steps.append(
          DesktopRecording.Step(session: name, words: Self.setWords(configuration)))
      }
      steps.append(
        DesktopRecording.Step(
          words: ["simulate", "daemon", "stop"],
          comment: recorder.cut > 0
            ? "the desktop as it was after the steps cut, with no daemon to see it"
            : "what the daemon found when it started, with no daemon to see it"))
      for (incarnation, state) in baseline.programs {
        guard let words = startWords(incarnation, paused: state.paused) else { continue }
        steps.append(DesktopRecording.Step(words: words))
        if state.closed, let name = recorder.incarnations[incarnation]?.name {
          steps.append(DesktopRecording.Step(words: ["simulate", "program", name, "close"]))
        }
      }
      steps.append(
        DesktopRecording.Step(
          words: ["simulate", "daemon", "start"] + (baseline.busFirst ? ["--bus-first"] : []),
          comment: "the daemon starts", decided: baseline.decided,
          decidedLeftOut: baseline.decidedLeftOut))
      return steps
    }

    mutating func step(_ entry: Entry) -> DesktopRecording.Step {
      var step = DesktopRecording.Step(
        words: [], comment: entry.comment, decided: entry.decided,
        decidedLeftOut: entry.decidedLeftOut, at: entry.at)
      switch entry.kind {
      case .command(let session, let words):
        step.session = session
        step.words = words
      case .start(let incarnation):
        let paused = recorder.incarnations[incarnation]?.paused ?? false
        if let words = startWords(incarnation, paused: paused) { step.words = words }
      case .plug(let preset, let device):
        uids[device] = uid(plugging: preset)
        step.words = ["simulate", "plug", preset]
      case .unplug(let device):
        step.words = [
          "simulate", "unplug", uids[device] ?? recorder.devicePresets[device] ?? "device",
        ]
      case .comment:
        break
      }
      return step
    }

    /// `simulate program NAME start --binary BIN …`, as the program is known now.
    private func startWords(_ number: Int, paused: Bool) -> [String]? {
      guard let program = recorder.incarnations[number] else { return nil }
      var words = ["simulate", "program", program.name, "start", "--binary", program.binary]
      if let role = program.role { words += ["--role", role] }
      if let appName = program.appName { words += ["--app-name", appName] }
      words += ["--pid", "\(program.pid)"]
      if let group = program.group { words += ["--group", "\(group)"] }
      if program.records { words.append("--records") }
      if program.neverCorks || neverCork.contains(number) { words.append("--never-corks") }
      if let player = program.player { words += ["--player", player] }
      if paused { words.append("--paused") }
      for key in program.properties.keys.sorted() {
        words += ["--property", "\(key)=\(program.properties[key] ?? "")"]
      }
      return words
    }

    /// `set CATEGORY [--mode M] [--policy P] [--options a,b]`, the configuration as set.
    static func setWords(_ configuration: SessionConfiguration) -> [String] {
      var words = ["set", configuration.category.name, "--mode", configuration.mode.name]
      if configuration.policy != .default { words += ["--policy", configuration.policy.name] }
      let names = Policy.explicitNames(configuration.options).named.map(\.name)
      if !names.isEmpty { words += ["--options", names.joined(separator: ",")] }
      return words
    }
  }
}
