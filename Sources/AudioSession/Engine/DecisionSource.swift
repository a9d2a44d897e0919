/// Where a decision of the engine came from (docs/contract.md "Seeing why"): the policy file and
/// key path of the rule or table cell it used, and the profile switch when one applied; or, for
/// what no table decides (AVAudioSession's fixed behaviour), the spec section. Recorded by the
/// engine as it decides, only when asked (``Engine/explaining``). A class: the engine passes a
/// reference (nil while not explaining), never a wide value, on its hot paths.
public final class DecisionSource: Sendable, Hashable {
  /// The policy file, `interactions.json`; nil for fixed behaviour.
  public let policy: String?
  /// The key path in that file, `rules[2]`, `call.blocksActivation`,
  /// `categories.playback.options.duckOthers`.
  public let path: String?
  /// The profile switch that decided, if one did (`endedAfterCall`).
  public let switchName: String?
  /// For fixed behaviour: the section of ``document`` that describes it (`§5.1 A4`).
  public let spec: String?
  /// The document of ``spec``; nil: docs/avaudiosession.md.
  public let document: String?

  public init(
    policy: String? = nil, path: String? = nil, switchName: String? = nil, spec: String? = nil,
    document: String? = nil
  ) {
    self.policy = policy
    self.path = path
    self.switchName = switchName
    self.spec = spec
    self.document = document
  }

  public static func == (lhs: DecisionSource, rhs: DecisionSource) -> Bool {
    lhs.policy == rhs.policy && lhs.path == rhs.path && lhs.switchName == rhs.switchName
      && lhs.spec == rhs.spec && lhs.document == rhs.document
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(policy)
    hasher.combine(path)
    hasher.combine(switchName)
    hasher.combine(spec)
    hasher.combine(document)
  }

  /// `docs/avaudiosession.md §5.1 A4`, for fixed behaviour.
  public var specReference: String? {
    spec.map { (document ?? "docs/avaudiosession.md") + " " + $0 }
  }

  /// A table cell or rule: `table("interactions.json", "rules[2]")`.
  public static func table(_ policy: String, _ path: String) -> DecisionSource {
    DecisionSource(policy: policy, path: path)
  }

  /// A profile switch of `profile`: `profiles.json`, `profiles.NAME.switches.SWITCH`.
  public static func profileSwitch(_ name: String, profile: String) -> DecisionSource {
    DecisionSource(
      policy: "profiles.json", path: "profiles.\(profile).switches.\(name)", switchName: name)
  }

  /// Fixed behaviour, described in docs/avaudiosession.md at `section` (`§5.1 A4`).
  public static func fixed(_ section: String) -> DecisionSource {
    DecisionSource(spec: section)
  }
}

/// Why one notification was posted or one error returned: where the decision came from, the
/// profile in force, and the input that triggered it (a step as written, a command, a system
/// event).
public struct Because: Sendable, Hashable {
  public var source: DecisionSource
  public var profile: String
  public var trigger: String

  public init(source: DecisionSource, profile: String, trigger: String) {
    self.source = source
    self.profile = profile
    self.trigger = trigger
  }
}
