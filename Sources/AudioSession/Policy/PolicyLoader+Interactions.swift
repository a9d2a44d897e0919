// interactions.json: who interrupts, ducks, mutes or mixes with whom, and the system actors
// (docs/avaudiosession.md §2, §4.4, §5.1 A2–A6).

extension PolicyLoader {
  static let matcherKeys = ["categories", "modes", "mixable", "options", "hasInput", "hasOutput"]

  /// Reads `interactions.json`; nil when any part of it has a problem.
  static func readInteractions(_ root: Node) -> InteractionRules? {
    guard
      let top = topLevel(
        root,
        required: [
          "rules", "call", "silencedBy", "micMute", "vanishedApp", "background", "siri",
          "alarm", "promptStyle",
        ])
    else {
      return nil
    }
    let rules = top["rules"].flatMap(readRules)

    var call: (activation: [Category], setCategory: [Category])?
    if let fields = top["call"]?.object(required: [
      "blocksActivation", "blocksSetCategory", "source",
    ]) {
      let activation: [Category]? = fields["blocksActivation"]?.names("category")
      let setCategory: [Category]? = fields["blocksSetCategory"]?.names("category")
      let source = fields["source"]?.text()
      if let activation, let setCategory, source != nil { call = (activation, setCategory) }
    }

    var silencedBy: [MuteReason: Set<Category>]?
    if let node = top["silencedBy"] {
      silencedBy = readSilencedBy(node)
    }

    var micMute: (interrupts: [Category], exempt: CategoryOption)?
    if let fields = top["micMute"]?.object(required: ["interrupts", "exemptOption", "source"]) {
      let interrupts: [Category]? = fields["interrupts"]?.names("category")
      let exempt: CategoryOption? = fields["exemptOption"]?.name("option")
      let source = fields["source"]?.text()
      if let interrupts, let exempt, source != nil { micMute = (interrupts, exempt) }
    }

    let vanishedApp = top["vanishedApp"].flatMap(readVanishedApp)
    let background = top["background"].flatMap(readBackground)

    var siri: (interrupts: SessionMatcher, refuses: SessionMatcher)?
    if let fields = top["siri"]?.object(required: ["interrupts", "refusesActivation", "source"]) {
      let interrupts = fields["interrupts"].flatMap(readMatcher)
      let refuses = fields["refusesActivation"].flatMap(readMatcher)
      let source = fields["source"]?.text()
      if let interrupts, let refuses, source != nil { siri = (interrupts, refuses) }
    }

    var alarm: SessionMatcher?
    if let fields = top["alarm"]?.object(required: ["interrupts", "source"]) {
      let interrupts = fields["interrupts"].flatMap(readMatcher)
      if fields["source"]?.text() != nil { alarm = interrupts }
    }

    var promptStyle: SessionMatcher?
    if let fields = top["promptStyle"]?.object(required: ["sessions", "source"]) {
      let sessions = fields["sessions"].flatMap(readMatcher)
      if fields["source"]?.text() != nil { promptStyle = sessions }
    }

    guard let rules, let call, let silencedBy, let micMute, let vanishedApp, let background,
      let siri, let alarm, let promptStyle
    else { return nil }
    return InteractionRules(
      rules: rules, callBlocksActivation: Set(call.activation),
      callBlocksSetCategory: Set(call.setCategory), silencedBy: silencedBy,
      micMuteInterrupts: Set(micMute.interrupts), micMuteExemptOption: micMute.exempt.bits,
      vanishedApp: vanishedApp, background: background, siriInterrupts: siri.interrupts,
      siriRefusesActivation: siri.refuses, alarmInterrupts: alarm,
      promptStyleSessions: promptStyle)
  }

  /// `background`: the calls iOS refuses from the background, first match decides.
  private static func readBackground(_ node: Node) -> [BackgroundRefusal]? {
    guard let elements = node.array() else { return nil }
    var refusals: [BackgroundRefusal] = []
    var complete = true
    for element in elements {
      guard
        let fields = element.object(required: [
          "call", "session", "unlessNowPlaying", "error", "source",
        ])
      else {
        complete = false
        continue
      }
      let call: BackgroundRefusal.Call? = fields["call"].flatMap { callNode in
        guard let text = callNode.text() else { return nil }
        guard let call = BackgroundRefusal.Call(rawValue: text) else {
          let valid = BackgroundRefusal.Call.allCases.map(\.rawValue).joined(separator: ", ")
          callNode.report("unknown call '\(text)'; valid: \(valid)")
          return nil
        }
        return call
      }
      let session = fields["session"].flatMap(readMatcher)
      let unlessNowPlaying = fields["unlessNowPlaying"]?.bool()
      let error: SessionErrorCode? = fields["error"].flatMap { errorNode in
        guard let text = errorNode.text() else { return nil }
        let valid = SessionErrorCode.allCases.filter { $0 != .none }
        guard let code = valid.first(where: { $0.name == text }) else {
          errorNode.report(
            "unknown error code '\(text)'; valid: \(valid.map(\.name).joined(separator: ", "))")
          return nil
        }
        return code
      }
      let source = fields["source"]?.text()
      guard let call, let session, let unlessNowPlaying, let error, let source else {
        complete = false
        continue
      }
      refusals.append(
        BackgroundRefusal(
          call: call, session: session, unlessNowPlaying: unlessNowPlaying, error: error,
          source: source))
    }
    return complete ? refusals : nil
  }

  /// A `vanishedApp` value, in `interactions.json` or as a profile's override.
  static func readVanishedApp(_ node: Node) -> VanishedAppEnding? {
    guard let text = node.text() else { return nil }
    guard let value = VanishedAppEnding(rawValue: text) else {
      node.report("unknown vanishedApp value '\(text)'; valid: \(VanishedAppEnding.validNames)")
      return nil
    }
    return value
  }

  private static func readSilencedBy(_ node: Node) -> [MuteReason: Set<Category>]? {
    let reasons: [MuteReason] = [.silentSwitch, .screenLock]
    if case .object(let members) = node.value, members[MuteReason.recording.rawValue] != nil {
      node.diagnostics.report(
        node.childPath(MuteReason.recording.rawValue),
        """
        muting by a recording session comes from an interaction rule with action \"mute\", not \
        from silencedBy; valid keys: silentSwitch, screenLock, source
        """
      )
    }
    guard
      let fields = node.object(
        required: reasons.map(\.rawValue) + ["source"],
        optional: [MuteReason.recording.rawValue])
    else { return nil }
    var result: [MuteReason: Set<Category>] = [:]
    for reason in reasons {
      if let list: [Category] = fields[reason.rawValue]?.names("category") {
        result[reason] = Set(list)
      }
    }
    let source = fields["source"]?.text()
    guard result.count == reasons.count, source != nil, fields["recording"] == nil else {
      return nil
    }
    return result
  }

  private static func readRules(_ node: Node) -> [InteractionRule]? {
    guard let elements = node.array() else { return nil }
    guard !elements.isEmpty else {
      node.report(
        """
        must list at least one rule; the last rule matches every pair (\"incoming\": {}, \
        \"holder\": {})
        """
      )
      return nil
    }
    var rules: [InteractionRule] = []
    var complete = true
    var names: [String: Int] = [:]
    for (index, element) in elements.enumerated() {
      guard
        let fields = element.object(required: [
          "name", "incoming", "holder", "action", "source",
        ])
      else {
        complete = false
        continue
      }
      let name = fields["name"]?.identifier("rule name")
      if let name, let nameNode = fields["name"] {
        if let first = names[name] {
          nameNode.report("rule name '\(name)' is already used by rules[\(first)]")
        } else {
          names[name] = index
        }
      }
      let incoming = fields["incoming"].flatMap(readMatcher)
      let holder = fields["holder"].flatMap(readHolderMatcher)
      let action: InteractionAction? = fields["action"].flatMap { actionNode in
        guard let text = actionNode.text() else { return nil }
        guard let action = InteractionAction(rawValue: text) else {
          let valid = InteractionAction.allCases.map(\.rawValue).joined(separator: ", ")
          actionNode.report("unknown action '\(text)'; valid: \(valid)")
          return nil
        }
        return action
      }
      let source = fields["source"]?.text()
      guard let name, let incoming, let holder, let action, let source else {
        complete = false
        continue
      }
      if holder.playing != nil, action != .interrupt, let holderNode = fields["holder"] {
        holderNode.report(
          """
          'playing' applies only to a rule whose action is interrupt: who is interrupted is \
          decided when a session activates, while '\(action.rawValue)' lasts as long as both are \
          active; remove 'playing' or make the action interrupt
          """)
        complete = false
        continue
      }
      rules.append(
        InteractionRule(
          name: name, incoming: incoming, holder: holder, action: action, source: source))
    }
    guard complete else { return nil }
    return checkCatchAll(rules, node) ? rules : nil
  }

  /// The last rule must match every pair, and nothing may follow a rule that does.
  private static func checkCatchAll(_ rules: [InteractionRule], _ node: Node) -> Bool {
    let matchesAll = SessionMatcher()
    guard
      let first = rules.firstIndex(where: {
        $0.incoming == matchesAll && $0.holder == matchesAll
      })
    else {
      node.diagnostics.report(
        "\(node.path)[\(rules.count - 1)]",
        """
        the last rule must match every pair (\"incoming\": {}, \"holder\": {}); its action is the \
        default
        """
      )
      return false
    }
    guard first == rules.count - 1 else {
      for index in (first + 1)..<rules.count {
        node.diagnostics.report(
          "\(node.path)[\(index)]",
          """
          rule '\(rules[index].name)' can never apply: rule '\(rules[first].name)' \
          (rules[\(first)]) before it matches every pair; move the catch-all rule to the end
          """
        )
      }
      return false
    }
    return true
  }

  private static func readMatcher(_ node: Node) -> SessionMatcher? {
    readMatcher(node, keys: matcherKeys)
  }

  /// An interaction rule's holder, which may also name `playing`.
  private static func readHolderMatcher(_ node: Node) -> SessionMatcher? {
    readMatcher(node, keys: matcherKeys + ["playing"])
  }

  private static func readMatcher(_ node: Node, keys: [String]) -> SessionMatcher? {
    guard let fields = node.object(required: [], optional: keys) else { return nil }
    var matcher = SessionMatcher()
    var valid = true
    if let list = fields["categories"] {
      let categories: [Category]? = list.names("category", allowEmpty: false)
      matcher.categories = categories.map { Set($0) }
      valid = valid && categories != nil
    }
    if let list = fields["modes"] {
      let modes: [Mode]? = list.names("mode", allowEmpty: false)
      matcher.modes = modes.map { Set($0) }
      valid = valid && modes != nil
    }
    if let list = fields["options"] {
      matcher.options = list.options(allowEmpty: false)
      valid = valid && matcher.options != nil
    }
    for key in ["mixable", "hasInput", "hasOutput", "playing"] {
      guard let flagNode = fields[key] else { continue }
      let flag = flagNode.bool()
      valid = valid && flag != nil
      switch key {
      case "mixable": matcher.mixable = flag
      case "hasInput": matcher.hasInput = flag
      case "hasOutput": matcher.hasOutput = flag
      default: matcher.playing = flag
      }
    }
    return valid ? matcher : nil
  }
}
