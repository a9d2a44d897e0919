// profiles.json: named answers to the disputed points of docs/avaudiosession.md §12.

extension PolicyLoader {
  /// The switches every profile sets besides the cell switches, with the §12 row each decides.
  public enum FixedSwitch: String, CaseIterable, Sendable {
    case defaultToSpeakerOverridesHeadphones
    case enforceAdvisoryModes
    case invalidOptionError
    case endedAfterCall
    case endedWithoutNotifyOthers
    case rejectExplicitImpliedOptions
    case callBlocksPlaybackActivation
    case readBackModeImpliedOptions
    case categoryChangeWhileInactive
    case noResumeAfterPrivateRouteLost
    case deactivateWithRunningIOIsBusy
    case suspensionReasonAppWasSuspended
    case lifecycleNotifications

    /// The name used in `profiles.json`.
    public var name: String { rawValue }

    /// Where the spec discusses it (`§12 D1`).
    public var specReference: String {
      switch self {
      case .defaultToSpeakerOverridesHeadphones: "§12 D1"
      case .enforceAdvisoryModes: "§12 D4"
      case .invalidOptionError: "§12 D5"
      case .endedAfterCall: "§12 D6"
      case .endedWithoutNotifyOthers: "§12 D7"
      case .rejectExplicitImpliedOptions: "§12 D8"
      case .callBlocksPlaybackActivation: "§12 D9"
      case .readBackModeImpliedOptions: "§12 D13"
      case .categoryChangeWhileInactive: "§6.2"
      case .noResumeAfterPrivateRouteLost: "§9 item 3"
      case .deactivateWithRunningIOIsBusy: "§13.1"
      case .suspensionReasonAppWasSuspended: "§5.1 A12"
      case .lifecycleNotifications: "§13.1"
      }
    }

    /// The error codes `invalidOptionError` may name (§12 D5: -50 or 'what').
    public static let invalidOptionErrorCodes: [SessionErrorCode] = [.badParam, .unspecified]

    /// The switch's value in `switches`, as `policy show` prints it.
    public func value(in switches: ProfileSwitches) -> String {
      switch self {
      case .defaultToSpeakerOverridesHeadphones: "\(switches.defaultToSpeakerOverridesHeadphones)"
      case .enforceAdvisoryModes: "\(switches.enforceAdvisoryModes)"
      case .invalidOptionError: switches.invalidOptionError.name
      case .endedAfterCall: "\(switches.endedAfterCall)"
      case .endedWithoutNotifyOthers: "\(switches.endedWithoutNotifyOthers)"
      case .rejectExplicitImpliedOptions: "\(switches.rejectExplicitImpliedOptions)"
      case .callBlocksPlaybackActivation: "\(switches.callBlocksPlaybackActivation)"
      case .readBackModeImpliedOptions: "\(switches.readBackModeImpliedOptions)"
      case .categoryChangeWhileInactive: "\(switches.categoryChangeWhileInactive)"
      case .noResumeAfterPrivateRouteLost: "\(switches.noResumeAfterPrivateRouteLost)"
      case .deactivateWithRunningIOIsBusy: "\(switches.deactivateWithRunningIOIsBusy)"
      case .suspensionReasonAppWasSuspended: "\(switches.suspensionReasonAppWasSuspended)"
      case .lifecycleNotifications: "\(switches.lifecycleNotifications)"
      }
    }

    static var allNames: [String] { allCases.map(\.rawValue) }
  }

  /// The switches a profile may set to override a value the tables give every profile.
  public enum OverrideSwitch: String, CaseIterable, Sendable {
    /// Overrides `interactions.json`'s `vanishedApp`.
    case vanishedApp

    /// The name used in `profiles.json`.
    public var name: String { rawValue }

    /// The file whose value it overrides.
    public var file: String {
      switch self {
      case .vanishedApp: "interactions.json"
      }
    }

    /// Where its behaviour is specified.
    public var specReference: String {
      switch self {
      case .vanishedApp: "docs/engine.md \"Rules, and where they come from\""
      }
    }

    static var allNames: [String] { allCases.map(\.rawValue) }
  }

  /// Names a cell switch may not take: the fixed switches and the overrides.
  static var reservedSwitchNames: [String] { FixedSwitch.allNames + OverrideSwitch.allNames }

  /// A profile as read, before its cell switches are checked against the tables.
  struct ProfileDraft {
    var name: String
    var description: String?
    /// The profile it inherits its switches from, if any.
    var inherits: String?
    var flags: [FixedSwitch: Bool] = [:]
    var invalidOptionError: SessionErrorCode?
    /// The `vanishedApp` override, if the profile sets one.
    var vanishedApp: VanishedAppEnding?
    /// Boolean switches that are not fixed ones, with their nodes.
    var cellSwitches: [(name: String, value: Bool, node: Node)] = []
    /// Non-fixed keys whose value is not a boolean (already reported).
    var invalidKeys: Set<String> = []
    var switchesNode: Node?
    var complete: Bool
  }

  /// What `profiles.json` holds, before the cross-file checks.
  struct ProfilesDraft {
    var profiles: [ProfileDraft]
    var defaultProfile: String?
  }

  /// A profile's own fields as read, before what it inherits is resolved.
  private struct RawProfile {
    var name: String
    var node: Node
    var fields: Fields?
    /// Its own switches, in file order.
    var own: [(key: String, node: Node)]?
    /// The `inherits` key's node, if the profile names a parent.
    var parent: Node?
  }

  static func readProfiles(_ root: Node) -> ProfilesDraft {
    var draft = ProfilesDraft(profiles: [], defaultProfile: nil)
    guard let top = topLevel(root, required: ["defaultProfile", "profiles"]) else { return draft }
    if let profilesNode = top["profiles"], let members = profilesNode.members() {
      if members.isEmpty { profilesNode.report("must define at least one profile") }
      var raw: [RawProfile] = []
      for (name, node) in members {
        guard Node.isIdentifier(name) else {
          node.report(
            """
            profile name '\(name)' must start with a letter and contain only letters, digits and \
            '_'
            """
          )
          continue
        }
        let fields = node.object(
          required: ["description", "source", "switches"], optional: ["inherits"])
        raw.append(
          RawProfile(
            name: name, node: node, fields: fields, own: fields?["switches"]?.members(),
            parent: fields?["inherits"]))
      }
      let switches = resolveInheritance(raw)
      for profile in raw {
        draft.profiles.append(readProfile(profile, switches: switches[profile.name] ?? nil))
      }
    }
    if let defaultNode = top["defaultProfile"], let name = defaultNode.text() {
      let names = draft.profiles.map(\.name)
      if names.contains(name) {
        draft.defaultProfile = name
      } else if top["profiles"].flatMap({ $0.members() })?.contains(where: { $0.key == name })
        != true
      {
        defaultNode.report("unknown profile '\(name)'; valid: \(names.joined(separator: ", "))")
      }
    }
    return draft
  }

  /// Each profile's switches with what it inherits (policies/README.md "Profiles"): the
  /// parent's, resolved the same way, each replaced by the profile's own where it sets one, then
  /// the profile's others. Nil for a profile whose switches cannot be read, or whose `inherits`
  /// names no profile or makes a cycle (each reported once, at its `inherits`).
  private static func resolveInheritance(
    _ raw: [RawProfile]
  ) -> [String: [(key: String, node: Node)]?] {
    let byName = Dictionary(raw.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    var resolved: [String: [(key: String, node: Node)]?] = [:]
    func resolve(_ name: String, chain: [String]) -> [(key: String, node: Node)]? {
      if let done = resolved[name] { return done }
      guard let profile = byName[name], let own = profile.own else { return nil }
      var result: [(key: String, node: Node)]? = own
      if let parentNode = profile.parent {
        if let parent = parentNode.text() {
          if byName[parent] == nil {
            parentNode.report(
              "unknown profile '\(parent)' to inherit from; valid: "
                + raw.map(\.name).filter { $0 != name }.joined(separator: ", "))
            result = nil
          } else if chain.contains(parent) || parent == name {
            parentNode.report(
              "profiles inherit from each other: "
                + (chain + [name, parent]).drop { $0 != parent }.joined(separator: " → "))
            result = nil
          } else if let inherited = resolve(parent, chain: chain + [name]) {
            var merged = inherited.map { entry in
              own.first { $0.key == entry.key } ?? entry
            }
            let inheritedKeys = Set(inherited.map(\.key))
            merged += own.filter { !inheritedKeys.contains($0.key) }
            result = merged
          } else {
            result = nil
          }
        } else {
          result = nil
        }
      }
      resolved[name] = .some(result)
      return result
    }
    for profile in raw { _ = resolve(profile.name, chain: []) }
    return resolved
  }

  private static func readProfile(
    _ raw: RawProfile, switches members: [(key: String, node: Node)]?
  ) -> ProfileDraft {
    var draft = ProfileDraft(name: raw.name, complete: false)
    guard let fields = raw.fields else { return draft }
    draft.description = fields["description"]?.text()
    draft.inherits = raw.parent?.text()
    let source = fields["source"]?.text()
    // A profile whose inherited switches cannot be resolved is checked no further: its
    // `inherits` says what is wrong.
    guard let switchesNode = fields["switches"], let members else { return draft }
    draft.switchesNode = switchesNode
    var validOverrides = true
    for (key, valueNode) in members {
      if OverrideSwitch(rawValue: key) == .vanishedApp {
        draft.vanishedApp = readVanishedApp(valueNode)
        validOverrides = validOverrides && draft.vanishedApp != nil
        continue
      }
      guard let fixed = FixedSwitch(rawValue: key) else {
        if let value = valueNode.bool() {
          draft.cellSwitches.append((key, value, valueNode))
        } else {
          draft.invalidKeys.insert(key)
        }
        continue
      }
      if fixed == .invalidOptionError {
        draft.invalidOptionError = errorCode(valueNode)
      } else {
        draft.flags[fixed] = valueNode.bool()
      }
    }
    for fixed in FixedSwitch.allCases where !members.contains(where: { $0.key == fixed.rawValue }) {
      switchesNode.diagnostics.report(
        switchesNode.childPath(fixed.rawValue),
        """
        missing switch '\(fixed.rawValue)' (\(fixed.specReference)); every profile sets every \
        switch, itself or through the profile it inherits from
        """
      )
    }
    draft.complete =
      draft.description != nil && source != nil && draft.invalidOptionError != nil
      && draft.flags.count == FixedSwitch.allCases.count - 1 && draft.invalidKeys.isEmpty
      && validOverrides
    return draft
  }

  private static func errorCode(_ node: Node) -> SessionErrorCode? {
    let valid = FixedSwitch.invalidOptionErrorCodes
    guard let text = node.text() else { return nil }
    guard let code = valid.first(where: { $0.name == text }) else {
      node.report(
        "unknown error code '\(text)'; valid: \(valid.map(\.name).joined(separator: ", "))")
      return nil
    }
    return code
  }

  /// Builds the profile once the cell switches have been checked.
  static func makeProfile(_ draft: ProfileDraft) -> Profile? {
    guard draft.complete, let description = draft.description,
      let invalidOptionError = draft.invalidOptionError
    else { return nil }
    func flag(_ key: FixedSwitch) -> Bool { draft.flags[key] ?? false }
    let switches = ProfileSwitches(
      defaultToSpeakerOverridesHeadphones: flag(.defaultToSpeakerOverridesHeadphones),
      enforceAdvisoryModes: flag(.enforceAdvisoryModes), invalidOptionError: invalidOptionError,
      endedAfterCall: flag(.endedAfterCall),
      endedWithoutNotifyOthers: flag(.endedWithoutNotifyOthers),
      rejectExplicitImpliedOptions: flag(.rejectExplicitImpliedOptions),
      callBlocksPlaybackActivation: flag(.callBlocksPlaybackActivation),
      readBackModeImpliedOptions: flag(.readBackModeImpliedOptions),
      categoryChangeWhileInactive: flag(.categoryChangeWhileInactive),
      noResumeAfterPrivateRouteLost: flag(.noResumeAfterPrivateRouteLost),
      deactivateWithRunningIOIsBusy: flag(.deactivateWithRunningIOIsBusy),
      suspensionReasonAppWasSuspended: flag(.suspensionReasonAppWasSuspended),
      lifecycleNotifications: flag(.lifecycleNotifications),
      cellSwitches: Dictionary(
        uniqueKeysWithValues: draft.cellSwitches.map { ($0.name, $0.value) }),
      vanishedApp: draft.vanishedApp
    )
    return Profile(
      name: draft.name, description: description, switches: switches, inherits: draft.inherits)
  }
}
