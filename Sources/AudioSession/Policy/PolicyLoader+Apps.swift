// apps.json: how other programs' streams become sessions (docs/apps.md "Rules").

extension PolicyLoader {
  /// The optional file of app rules; without it, other programs' streams are not arbitrated.
  public static let appsFileName = "apps.json"

  /// Reads `apps.json`; nil when any part of it has a problem.
  static func readApps(_ root: Node) -> AppRules? {
    guard let top = topLevel(root, required: ["rules"]), let list = top["rules"]?.array() else {
      return nil
    }
    var rules: [AppRules.Rule] = []
    var nodes: [Node] = []
    var names: Set<String> = []
    var complete = true
    for node in list {
      guard let rule = readAppRule(node) else {
        complete = false
        continue
      }
      if !names.insert(rule.name).inserted {
        node.diagnostics.report(node.childPath("name"), "rule name '\(rule.name)' is used twice")
        complete = false
      }
      rules.append(rule)
      nodes.append(node)
    }
    // A rule after one that matches every stream it matches never applies (as interactions.json
    // reports its rules after the catch-all).
    for (later, rule) in rules.enumerated() {
      guard let earlier = rules[..<later].firstIndex(where: { AppRules.shadows($0, rule) }) else {
        continue
      }
      nodes[later].diagnostics.report(
        nodes[later].childPath("match"),
        """
        rule '\(rule.name)' can never apply: rule '\(rules[earlier].name)' before it matches \
        every stream it matches; move '\(rule.name)' before it, or narrow '\(rules[earlier].name)'
        """)
      complete = false
    }
    return complete ? AppRules(rules) : nil
  }

  private static func readAppRule(_ node: Node) -> AppRules.Rule? {
    guard
      let fields = node.object(
        required: ["name", "match", "source"],
        optional: [
          "category", "mode", "options", "policy", "call", "ignore", "app",
          "inactiveAfterSilence", "heldAfterLastStream",
        ])
    else { return nil }
    let name = fields["name"]?.identifier("rule name")
    let source = fields["source"]?.text()
    var match: [String: String?]? = nil
    if let matchNode = fields["match"], let members = matchNode.members() {
      var patterns: [String: String?] = [:]
      var valid = true
      for (key, value) in members {
        if key.isEmpty || key.contains(where: \.isWhitespace) {
          value.report("property key '\(key)' must be a non-empty name without spaces")
          valid = false
        } else if case .null = value.value {
          patterns[key] = .some(nil)
        } else if case .string(let glob) = value.value, !glob.isEmpty {
          if let problem = Glob.problem(glob) {
            value.report(problem)
            valid = false
          }
          patterns[key] = glob
        } else {
          value.report(
            "expected a glob (a non-empty string) or null (the property is absent), found "
              + value.value.kindName)
          valid = false
        }
      }
      if valid { match = patterns }
    }
    let ignore = fields["ignore"]?.bool()
    // An app session's name: what the tracker's own names are made of (docs/apps.md "Rules").
    var app: String?? = .some(nil)
    if let appNode = fields["app"] {
      app = nil
      if let text = appNode.text() {
        if text.utf8.count <= Command.maxSessionNameBytes,
          text.unicodeScalars.allSatisfy({
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
              || $0 == "-" || $0 == "_"
          })
        {
          app = .some(text)
        } else {
          appNode.report(
            "app '\(text)' must be 1 to \(Command.maxSessionNameBytes) letters A-Z or a-z, "
              + "digits, '-' or '_' (an app session's name)")
        }
      }
    }
    // Milliseconds, within what a pause between a speaker's sentences and a minute give.
    var silence: Int?? = .some(nil)
    if let silenceNode = fields["inactiveAfterSilence"] {
      silence = nil
      if case .int(let value) = silenceNode.value, (100...60_000).contains(value) {
        silence = .some(value)
      } else {
        let found =
          if case .int(let value) = silenceNode.value { "\(value)" } else {
            silenceNode.value.kindName
          }
        silenceNode.report(
          "expected milliseconds of silence, a whole number from 100 to 60000, found \(found)")
      }
    }
    // Milliseconds, within what the gap between one program's streams and a second give.
    var held: Int?? = .some(nil)
    if let heldNode = fields["heldAfterLastStream"] {
      held = nil
      if case .int(let value) = heldNode.value, (10...1_000).contains(value) {
        held = .some(value)
      } else {
        let found =
          if case .int(let value) = heldNode.value { "\(value)" } else {
            heldNode.value.kindName
          }
        heldNode.report(
          "expected the milliseconds an app session outlives its last stream, a whole number "
            + "from 10 to 1000, found \(found)")
      }
    }
    let outcome: AppRules.Outcome?
    if ignore == true {
      let keys = [
        "category", "mode", "options", "policy", "call", "app", "inactiveAfterSilence",
        "heldAfterLastStream",
      ]
      for key in keys where fields[key] != nil {
        fields[key]?.report("an ignored stream has no '\(key)'; remove it or 'ignore'")
      }
      outcome = keys.contains { fields[$0] != nil } ? nil : .ignore
    } else if fields["ignore"] != nil, ignore == nil {
      outcome = nil
    } else if let categoryNode = fields["category"] {
      let category: Category? = categoryNode.name("category")
      let mode: Mode? = fields["mode"].map { $0.name("mode") } ?? .default
      let options = fields["options"].map { $0.options() } ?? []
      let policy: RouteSharingPolicy? =
        fields["policy"].map { $0.name("route-sharing policy") } ?? .default
      let call: Bool? = fields["call"].map { $0.bool() } ?? false
      if let category, let mode, let options, let policy, let call {
        outcome = .session(
          category: category, mode: mode, options: options, policy: policy, call: call)
      } else {
        outcome = nil
      }
    } else {
      node.diagnostics.report(
        node.childPath("category"),
        "missing 'category': a rule gives a category (with optional 'mode' and 'options') or "
          + "\"ignore\": true")
      outcome = nil
    }
    guard let name, source != nil, let match, let outcome, case .some(let app) = app,
      case .some(let silence) = silence, case .some(let held) = held
    else {
      return nil
    }
    return AppRules.Rule(
      name: name, match: match, outcome: outcome, app: app, inactiveAfterSilence: silence,
      heldAfterLastStream: held)
  }
}
