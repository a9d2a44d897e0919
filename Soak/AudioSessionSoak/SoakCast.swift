/// The programs a soak history acts out (docs/soak.md "The cast"): each is a real program the
/// soak starts on a private server, with its own tone, and the desktop step that starts it in
/// the scenario that predicts what is heard (docs/contract.md "Desktop steps").
public struct SoakProgram: Sendable, Hashable {
  /// What runs on the server.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    /// `mpv` with mpv-mpris, looping a WAV tone: it corks while paused, and has a player.
    case mpv
    /// `pacat` looping a raw tone, with `media.role` and `application.name` properties.
    case pacat
    /// Chromium headless playing a local page's `<audio loop>` with Media Session metadata:
    /// its stream never corks, and it has a player (`chromium.instance<PID>`).
    case chromium
    /// `espeak-ng` reading a long text: speech, no single tone.
    case speech
    /// A call: a phone-role `pacat` playback (with a tone) and record pair in one process group.
    case call
  }

  /// The scenario's name for the program (docs/contract.md "Desktop steps").
  public var name: String
  public var kind: Kind
  /// The `media.role` of its streams, if any.
  public var role: String?
  /// Its `application.name`, if the soak sets one.
  public var appName: String?
  /// The frequency of its tone in hertz; `nil` for speech.
  public var frequency: Int?

  public init(name: String, kind: Kind, role: String?, appName: String?, frequency: Int?) {
    self.name = name
    self.kind = kind
    self.role = role
    self.appName = appName
    self.frequency = frequency
  }

  /// Whether it publishes an MPRIS player, which the user's `playerctl` commands reach.
  public var hasPlayer: Bool { kind == .mpv || kind == .chromium }

  /// The player's bus name in the scenario (the real one may carry `.instance<PID>`: the
  /// scenario's name is only a name).
  public var playerBus: String { "org.mpris.MediaPlayer2.\(name)" }

  /// The process binary its streams carry (`application.process.binary`).
  public var binary: String {
    switch kind {
    case .mpv: "mpv"
    case .pacat, .call: "pacat"
    case .chromium: "chromium"
    case .speech: "espeak-ng"
    }
  }

  /// The desktop step that starts it.
  public var startStep: String {
    var words = ["simulate", "program", name, "start", "--binary", binary]
    if let role { words += ["--role", role] }
    if let appName { words += ["--app-name", appName] }
    switch kind {
    case .mpv: words += ["--player", playerBus]
    case .chromium: words += ["--never-corks", "--player", playerBus]
    case .call: words.append("--records")
    case .pacat, .speech: break
    }
    return words.joined(separator: " ")
  }

  /// The cast every history draws from, each with a tone of its own a few semitones from the
  /// next (Goertzel filters over half a second tell them apart with room to spare).
  public static let cast: [SoakProgram] = [
    SoakProgram(name: "mpv", kind: .mpv, role: "music", appName: nil, frequency: 440),
    SoakProgram(name: "player", kind: .mpv, role: nil, appName: nil, frequency: 554),
    SoakProgram(name: "music", kind: .pacat, role: "music", appName: "soak-music", frequency: 698),
    SoakProgram(name: "beep", kind: .pacat, role: "event", appName: "soak-beep", frequency: 880),
    SoakProgram(name: "tone", kind: .pacat, role: nil, appName: "soak-tone", frequency: 1109),
    SoakProgram(name: "web", kind: .chromium, role: nil, appName: "Chromium", frequency: 1397),
    SoakProgram(name: "speech", kind: .speech, role: nil, appName: "eSpeak", frequency: nil),
    SoakProgram(name: "call", kind: .call, role: "phone", appName: "soak-call", frequency: 1760),
  ]

  /// The cast member of this name.
  public static func named(_ name: String) -> SoakProgram? {
    cast.first { $0.name == name }
  }
}
