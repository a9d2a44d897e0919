/// A policy table with one profile selected: the questions the engine asks, answered from data.
public struct Policy: Sendable {
  public let table: PolicyTable
  public let profile: Profile

  /// Selects a profile by name (nil: the table's default).
  public init(table: PolicyTable, profile name: String? = nil) throws(SessionError) {
    let chosen = name ?? table.defaultProfile
    guard let profile = table.profiles[chosen] else {
      throw SessionError(
        .badParam,
        "unknown profile '\(chosen)'; valid profiles are: \(table.profileOrder.joined(separator: ", "))"
      )
    }
    self.table = table
    self.profile = profile
  }

  public var switches: ProfileSwitches { profile.switches }

  /// What the sessions a vanished app interrupted are told: the profile's override, else
  /// `interactions.json`'s `vanishedApp` (docs/engine.md "Rules, and where they come from").
  public var vanishedApp: VanishedAppEnding {
    switches.vanishedApp ?? table.interactions.vanishedApp
  }

  public func rules(for category: Category) -> CategoryRules {
    guard let rules = table.categories[category] else {
      preconditionFailure("validated policy has no row for category \(category.name)")
    }
    return rules
  }

  public func rules(for mode: Mode) -> ModeRules {
    guard let rules = table.modes[mode] else {
      preconditionFailure("validated policy has no row for mode \(mode.name)")
    }
    return rules
  }

  public func rules(for option: CategoryOption) -> OptionRules {
    guard let rules = table.options[option] else {
      preconditionFailure("validated policy has no row for option \(option.name)")
    }
    return rules
  }

  // MARK: Options

  /// The named options an app set explicitly. The 0x10 bit names
  /// interruptSpokenAudioAndMixWithOthers and takes the 0x1 bit with it; bits no option has are
  /// returned in `unknown`.
  public static func explicitNames(_ options: CategoryOptions) -> (
    named: [CategoryOption], unknown: UInt
  ) {
    var rest = options.rawValue
    var named: [CategoryOption] = []
    for option in CategoryOption.allCases.reversed() {
      let bits = option.bits.rawValue
      // Match on the option's distinguishing bit: the highest bit of its raw value.
      let high = UInt(1) << (UInt.bitWidth - 1 - bits.leadingZeroBitCount)
      if rest & high != 0 {
        named.append(option)
        rest &= ~bits
      }
    }
    return (named.sorted { $0.bits.rawValue < $1.bits.rawValue }, rest)
  }

  /// Explicit options plus those the category and the options themselves imply
  /// (docs/avaudiosession.md §4.2).
  public func effectiveOptions(_ configuration: SessionConfiguration) -> CategoryOptions {
    var effective = configuration.options.union(rules(for: configuration.category).impliedOptions)
    for option in Self.explicitNames(configuration.options).named {
      effective.formUnion(rules(for: option).implies)
    }
    return effective
  }

  /// What `categoryOptions` reads back: effective options, plus mode-implied ones when the
  /// profile says so (D13).
  public func readBackOptions(_ configuration: SessionConfiguration) -> CategoryOptions {
    var options = effectiveOptions(configuration)
    if switches.readBackModeImpliedOptions {
      options.formUnion(rules(for: configuration.mode).impliedOptions)
    }
    return options
  }

  /// The options that steer routing: effective plus mode-implied (voiceChat → HFP).
  public func routingOptions(_ configuration: SessionConfiguration) -> CategoryOptions {
    effectiveOptions(configuration).union(rules(for: configuration.mode).impliedOptions)
  }

  /// Whether the session mixes with others (docs/avaudiosession.md §10: ambient, or mixWithOthers
  /// set or implied).
  public func isMixable(_ configuration: SessionConfiguration) -> Bool {
    effectiveOptions(configuration).contains(.mixWithOthers)
  }

  func resolve(_ cell: OptionCell) -> OptionCell {
    guard case .profileSwitch(let name) = cell else { return cell }
    return switches.cellSwitches[name] == true ? .allowed : .forbidden
  }

  func resolve(_ cell: ModeCell) -> ModeCell {
    guard case .profileSwitch(let name) = cell else { return cell }
    return switches.cellSwitches[name] == true ? .allowed : .forbidden
  }

  // MARK: Interactions

  /// What `incoming` being active does to `holder` (first matching rule wins).
  /// `holderPlaying`: whether the holder's I/O runs (a rule's `"playing"`).
  public func action(
    incoming: SessionTraits, holder: SessionTraits, holderPlaying: Bool = true
  ) -> InteractionAction {
    interaction(incoming: incoming, holder: holder, holderPlaying: holderPlaying).action
  }

  /// The action and the index of the first interaction rule that matches (`interactions.json`
  /// `rules[index]`); nil index: none matched, and the sessions mix.
  public func interaction(
    incoming: SessionTraits, holder: SessionTraits, holderPlaying: Bool = true
  ) -> (action: InteractionAction, rule: Int?) {
    for (index, rule) in table.interactions.rules.enumerated()
    where rule.incoming.matches(incoming)
      && rule.holder.matches(holder, playing: holderPlaying)
    {
      return (rule.action, index)
    }
    return (.mix, nil)
  }

  /// The traits interaction rules match on.
  public func traits(_ configuration: SessionConfiguration) -> SessionTraits {
    let rules = rules(for: configuration.category)
    return SessionTraits(
      category: configuration.category, mode: configuration.mode,
      effectiveOptions: effectiveOptions(configuration), hasInput: rules.hasInput,
      hasOutput: rules.hasOutput)
  }
}

/// What interaction rules look at in a session.
public struct SessionTraits: Sendable, Hashable {
  public var category: Category
  public var mode: Mode
  public var effectiveOptions: CategoryOptions
  public var hasInput: Bool
  public var hasOutput: Bool

  public var isMixable: Bool { effectiveOptions.contains(.mixWithOthers) }
}

extension SessionMatcher {
  /// `playing`: whether the session's I/O runs, for a matcher that names `playing`.
  public func matches(_ traits: SessionTraits, playing: Bool = true) -> Bool {
    if let wanted = self.playing, wanted != playing { return false }
    if let categories, !categories.contains(traits.category) { return false }
    if let modes, !modes.contains(traits.mode) { return false }
    if let mixable, mixable != traits.isMixable { return false }
    if let options, !traits.effectiveOptions.contains(options) { return false }
    if let hasInput, hasInput != traits.hasInput { return false }
    if let hasOutput, hasOutput != traits.hasOutput { return false }
    return true
  }
}
