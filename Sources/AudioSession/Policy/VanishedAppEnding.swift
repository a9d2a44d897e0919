/// What the sessions an app interrupted are told when the app vanishes: its process exits or
/// crashes (the daemon loses its connection), or its session is removed (docs/engine.md "Rules, and where they come from").
///
/// It is `vanishedApp` in `interactions.json`, and a profile may override it in its switches.
/// Whatever the value, the vanished session is deactivated and its player stopped, and the
/// ducking and muting it caused end (`unduck`, `unmute`): only the `ended` notification varies.
public enum VanishedAppEnding: String, CaseIterable, Sendable, Hashable {
  /// `ended` with `shouldResume`, as if the app had deactivated with
  /// `notifyOthersOnDeactivation` (§5.1 A10): the interrupted apps resume by themselves.
  case endedShouldResume
  /// `ended` without options: the interruption is over, but the interrupted apps should not
  /// resume by themselves (they wait for their user).
  case endedNoResume
  /// No `ended`: the interrupted sessions stay interrupted until they reactivate by themselves,
  /// as after an interrupter that deactivates without notifying others (§12 D7 false). The
  /// profile's `endedWithoutNotifyOthers` does not apply.
  case stayInterrupted

  /// The name used in the policy files.
  public var name: String { rawValue }

  /// The options of the `ended` posted to each interrupted session, or nil when none is posted.
  public var endedOptions: InterruptionOptions? {
    switch self {
    case .endedShouldResume: .shouldResume
    case .endedNoResume: []
    case .stayInterrupted: nil
    }
  }

  /// What it means, for `sessionctl policy show`.
  public var summary: String {
    switch self {
    case .endedShouldResume: "ended with shouldResume"
    case .endedNoResume: "ended without shouldResume"
    case .stayInterrupted: "no ended (they stay interrupted)"
    }
  }

  /// The valid names, for error messages.
  static var validNames: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
