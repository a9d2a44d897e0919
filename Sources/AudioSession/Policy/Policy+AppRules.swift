// apps.json's configurations through the validation `setCategory` applies (docs/apps.md "Rules").

extension Policy {
  /// What `setCategory` would say of each `apps.json` rule's configuration under this policy's
  /// profile: the refusals (`failed`, which the daemon would log for every stream the rule
  /// matched, and the stream's session would stay soloAmbient) and the advisory notes
  /// (`warnings`), each at the rule's key path in `apps.json`.
  public func appRuleProblems() -> (failed: [PolicyProblem], warnings: [PolicyProblem]) {
    var failed: [PolicyProblem] = []
    var warnings: [PolicyProblem] = []
    for (index, rule) in table.apps.rules.enumerated() {
      guard case .session(let category, let mode, let options, let sharing, _) = rule.outcome
      else { continue }
      let requested = SessionConfiguration(
        category: category, mode: mode, options: options, policy: sharing)
      let path = "rules[\(index)]"
      let described = Self.describe(requested)
      switch validate(requested) {
      case .failure(let error):
        failed.append(
          PolicyProblem(
            file: PolicyLoader.appsFileName, keyPath: path,
            message: """
              rule '\(rule.name)' gives \(described), which setCategory refuses under profile \
              '\(profile.name)' (\(error.code.name)): \(error.message)
              """))
      case .success(let validated):
        for note in validated.warnings {
          warnings.append(
            PolicyProblem(
              file: PolicyLoader.appsFileName, keyPath: path,
              message: "rule '\(rule.name)' gives \(described): \(note)"))
        }
      }
    }
    return (failed, warnings)
  }

  /// A configuration in the contract's words: `ambient, mode default, options [defaultToSpeaker]`.
  public static func describe(_ configuration: SessionConfiguration) -> String {
    var text =
      "\(configuration.category.name), mode \(configuration.mode.name), options "
      + "[\(configuration.options.names.joined(separator: ", "))]"
    if configuration.policy != .default { text += ", policy \(configuration.policy.name)" }
    return text
  }
}
