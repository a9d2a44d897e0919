/// A configuration that passed the tables, with the warnings an advisory rule produced.
public struct ValidatedConfiguration: Sendable, Hashable {
  public var configuration: SessionConfiguration
  /// Documented restrictions iOS does not enforce (D4), as sentences.
  public var warnings: [String]
}

extension Policy {
  /// Checks a requested configuration against the compatibility tables (docs/avaudiosession.md §3,
  /// §4.1, §4.3).
  ///
  /// On failure the error carries AVAudioSession's code (badParam, or the profile's D5 code for
  /// options) and a sentence that names what would be valid; the caller must leave the session
  /// unchanged.
  public func validate(
    _ requested: SessionConfiguration
  ) -> Result<ValidatedConfiguration, SessionError> {
    check(requested).result
  }

  /// Where a configuration's refusal comes from: the table cell (or rule, or switch) that
  /// refused it; nil when it is valid (docs/contract.md "Seeing why").
  public func validationSource(_ requested: SessionConfiguration) -> DecisionSource? {
    check(requested).source
  }

  /// ``validate(_:)``, with the source of a refusal.
  func check(
    _ requested: SessionConfiguration
  ) -> (result: Result<ValidatedConfiguration, SessionError>, source: DecisionSource?) {
    let category = requested.category
    let mode = requested.mode
    let categoryRules = rules(for: category)
    guard categoryRules.supported else {
      let valid = Category.allCases.filter { rules(for: $0).supported }.map(\.name)
      return (
        .failure(
          SessionError(
            .badParam,
            "category '\(category.name)' is no longer supported; valid categories are: \(valid.joined(separator: ", "))"
          )), .table("categories.json", "categories.\(category.name).supported")
      )
    }
    if let refusal = policyRefusal(requested) { return (.failure(refusal.error), refusal.source) }
    var warnings: [String] = []
    switch modeCell(mode, category) {
    case .allowed: break
    case .advisory:
      let documented = categoriesAccepting(mode: mode, includeAdvisory: false).map(\.name)
      let note =
        "mode '\(mode.name)' is documented for category \(quotedList(documented)) only, not '\(category.name)'"
      if switches.enforceAdvisoryModes {
        return (
          .failure(SessionError(.badParam, note)),
          DecisionSource(
            policy: "modes.json", path: "modes.\(mode.name).categories.\(category.name)",
            switchName: "enforceAdvisoryModes")
        )
      }
      warnings.append(note + " (accepted: iOS does not enforce it)")
    case .forbidden, .profileSwitch:
      let valid = categoriesAccepting(mode: mode, includeAdvisory: true).map(\.name)
      return (
        .failure(
          SessionError(
            .badParam,
            "mode '\(mode.name)' is not valid with category '\(category.name)'; "
              + (valid.isEmpty
                ? "no category accepts it"
                : "categories that accept it: \(valid.joined(separator: ", "))")
          )), .table("modes.json", "modes.\(mode.name).categories.\(category.name)")
      )
    }

    let (named, unknown) = Self.explicitNames(requested.options)
    if unknown != 0 {
      return (
        .failure(
          SessionError(
            .badParam,
            "unknown category option bits 0x\(String(unknown, radix: 16)); valid options are: \(CategoryOption.validNames)"
          )), .fixed("§1.2")
      )
    }
    let optionError = switches.invalidOptionError
    for option in named {
      switch optionCell(option, category) {
      case .allowed: break
      case .implied:
        if switches.rejectExplicitImpliedOptions {
          return (
            .failure(
              SessionError(
                optionError,
                "option '\(option.name)' is implicitly on for category '\(category.name)' and cannot be set explicitly in this profile"
              )),
            DecisionSource(
              policy: "categories.json", path: "categories.\(category.name).options.\(option.name)",
              switchName: "rejectExplicitImpliedOptions")
          )
        }
      case .forbidden, .profileSwitch:
        return (
          .failure(SessionError(optionError, optionMessage(option, category))),
          .table("categories.json", "categories.\(category.name).options.\(option.name)")
        )
      }
    }
    let explicit = CategoryOptions(named)
    let withImplied = effectiveOptions(
      SessionConfiguration(category: category, mode: mode, options: explicit))
    for option in named {
      let optionRules = rules(for: option)
      for required in Self.explicitNames(optionRules.requires).named
      where !withImplied.contains(required.bits) {
        return (
          .failure(
            SessionError(
              optionError,
              "option '\(option.name)' requires option '\(required.name)' to be set too")
          ), .table("options.json", "options.\(option.name).requires")
        )
      }
      if let modes = optionRules.modes, !modes.contains(mode) {
        let names = Mode.allCases.filter { modes.contains($0) }.map(\.name)
        return (
          .failure(
            SessionError(
              optionError,
              "option '\(option.name)' is only valid with mode \(quotedList(names)), not '\(mode.name)'"
            )), .table("options.json", "options.\(option.name).modes")
        )
      }
      if let modes = optionRules.categoryModes[category], !modes.contains(mode) {
        let names = Mode.allCases.filter { modes.contains($0) }.map(\.name)
        return (
          .failure(
            SessionError(
              optionError,
              "option '\(option.name)' is valid with category '\(category.name)' only in mode \(quotedList(names)), not '\(mode.name)'"
            )),
          .table("options.json", "options.\(option.name).categoryModes.\(category.name)")
        )
      }
    }
    for required in Self.explicitNames(rules(for: mode).requiredOptions).named
    where !withImplied.contains(required.bits) {
      return (
        .failure(
          SessionError(.badParam, "mode '\(mode.name)' requires option '\(required.name)'")),
        .table("modes.json", "modes.\(mode.name).requiredOptions")
      )
    }
    return (
      .success(
        ValidatedConfiguration(
          configuration: SessionConfiguration(
            category: category, mode: mode, options: explicit, policy: requested.policy),
          warnings: warnings)), nil
    )
  }

  /// Why a route-sharing policy is refused with this configuration (`routes.json`
  /// `routeSharing`, docs/avaudiosession.md §13.3), or nil.
  func policyRefusal(
    _ requested: SessionConfiguration
  ) -> (error: SessionError, source: DecisionSource)? {
    let policy = requested.policy
    let routes = table.routes
    if routes.refusedPolicies.contains(policy) {
      return (
        SessionError(
          .badParam,
          "route-sharing policy '\(policy.name)' is set by the system; apps may not set it (valid: "
            + RouteSharingPolicy.allCases.filter { !routes.refusedPolicies.contains($0) }
            .map(\.name).joined(separator: ", ") + ")"),
        .table("routes.json", "routeSharing.refused")
      )
    }
    guard let limits = routes.routeSharing[policy] else { return nil }
    let source = DecisionSource.table("routes.json", "routeSharing.\(policy.name)")
    if !limits.categories.contains(requested.category) {
      let names = Category.allCases.filter { limits.categories.contains($0) }.map(\.name)
      return (
        SessionError(
          .badParam,
          "route-sharing policy '\(policy.name)' needs category \(quotedList(names)), not "
            + "'\(requested.category.name)'"), source
      )
    }
    if !limits.modes.contains(requested.mode) {
      let names = Mode.allCases.filter { limits.modes.contains($0) }.map(\.name)
      return (
        SessionError(
          .badParam,
          "route-sharing policy '\(policy.name)' needs mode \(quotedList(names)), not "
            + "'\(requested.mode.name)'"), source
      )
    }
    if !limits.allowsOptions, !requested.options.isEmpty {
      return (
        SessionError(
          .badParam,
          "route-sharing policy '\(policy.name)' takes no category options; options are allowed "
            + "when changing the policy back to default"), source
      )
    }
    return nil
  }

  /// The option cell with disputed cells resolved for this profile.
  public func optionCell(_ option: CategoryOption, _ category: Category) -> OptionCell {
    resolve(rules(for: category).options[option] ?? .forbidden)
  }

  /// The mode cell with disputed cells resolved for this profile.
  public func modeCell(_ mode: Mode, _ category: Category) -> ModeCell {
    resolve(rules(for: mode).categories[category] ?? .forbidden)
  }

  func categoriesAccepting(mode: Mode, includeAdvisory: Bool) -> [Category] {
    Category.allCases.filter {
      guard rules(for: $0).supported else { return false }
      switch modeCell(mode, $0) {
      case .allowed: return true
      case .advisory: return includeAdvisory
      case .forbidden, .profileSwitch: return false
      }
    }
  }

  func optionMessage(_ option: CategoryOption, _ category: Category) -> String {
    let accepting = Category.allCases.filter {
      guard rules(for: $0).supported else { return false }
      switch optionCell(option, $0) {
      case .allowed: return true
      case .implied: return !switches.rejectExplicitImpliedOptions
      case .forbidden, .profileSwitch: return false
      }
    }.map(\.name)
    if accepting.count == 1 {
      return "category option '\(option.name)' is only applicable with category '\(accepting[0])'"
    }
    if accepting.isEmpty {
      return "category option '\(option.name)' cannot be set with any category"
    }
    return
      "category option '\(option.name)' is not applicable with category '\(category.name)'; categories that accept it: \(accepting.joined(separator: ", "))"
  }
}

func quotedList(_ names: [String]) -> String {
  names.map { "'\($0)'" }.joined(separator: " or ")
}
