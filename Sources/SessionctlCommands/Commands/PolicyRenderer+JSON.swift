import AudioSession

// `policy show --json`: the tables in the shapes of the policy files, plus the selected profile
// and each cell as the profile resolves it. Keys keep a fixed order and sets are listed in the
// model's declaration order, so the same directory always prints the same bytes.

extension PolicyRenderer {
  typealias JSON = JSONValue

  /// The whole policy as one JSON document.
  func json() -> String {
    let document = JSON.members([
      ("schemaVersion", .int(PolicyLoader.schemaVersion)),
      ("profile", profileJSON(policy.profile)),
      ("defaultProfile", .string(table.defaultProfile)),
      ("profiles", .strings(table.profileOrder)),
      ("categories", .members(Category.allCases.map { ($0.name, categoryJSON($0)) })),
      ("modes", .members(Mode.allCases.map { ($0.name, modeJSON($0)) })),
      ("options", .members(CategoryOption.allCases.map { ($0.name, optionJSON($0)) })),
      ("interactions", interactionsJSON()),
      ("routes", routesJSON()),
      ("devices", devicesJSON()),
      ("apps", appsJSON()),
    ])
    return document.prettyPrinted
  }

  private func profileJSON(_ profile: Profile) -> JSON {
    var switches: [(String, JSON)] = PolicyLoader.FixedSwitch.allCases.map { key in
      let value = key.value(in: profile.switches)
      return (key.name, key == .invalidOptionError ? .string(value) : .bool(value == "true"))
    }
    for name in profile.switches.cellSwitches.keys.sorted() {
      switches.append((name, .bool(profile.switches.cellSwitches[name] ?? false)))
    }
    if let vanishedApp = profile.switches.vanishedApp {
      switches.append((PolicyLoader.OverrideSwitch.vanishedApp.name, .string(vanishedApp.name)))
    }
    return .members([
      ("name", .string(profile.name)), ("description", .string(profile.description)),
      ("inherits", profile.inherits.map { .string($0) } ?? .null),
      ("switches", .members(switches)),
    ])
  }

  private func categoryJSON(_ category: Category) -> JSON {
    let rules = policy.rules(for: category)
    let cells = CategoryOption.allCases.map { option in
      let raw = rules.options[option] ?? .forbidden
      return (
        option.name,
        JSON.members([
          ("cell", .string(cellName(raw))),
          ("effective", .string(cellName(policy.optionCell(option, category)))),
        ])
      )
    }
    return .members([
      ("supported", .bool(rules.supported)), ("hasInput", .bool(rules.hasInput)),
      ("hasOutput", .bool(rules.hasOutput)),
      ("impliedOptions", .strings(optionNames(rules.impliedOptions))),
      ("options", .members(cells)), ("source", .string(rules.source)),
    ])
  }

  private func modeJSON(_ mode: Mode) -> JSON {
    let rules = policy.rules(for: mode)
    let cells = Category.allCases.map { category in
      let raw = rules.categories[category] ?? .forbidden
      return (
        category.name,
        JSON.members([
          ("cell", .string(cellName(raw))),
          ("effective", .string(cellName(policy.modeCell(mode, category)))),
        ])
      )
    }
    return .members([
      ("categories", .members(cells)),
      ("impliedOptions", .strings(optionNames(rules.impliedOptions))),
      ("requiredOptions", .strings(optionNames(rules.requiredOptions))),
      ("source", .string(rules.source)),
    ])
  }

  private func optionJSON(_ option: CategoryOption) -> JSON {
    let rules = policy.rules(for: option)
    var members: [(String, JSON)] = [
      ("implies", .strings(optionNames(rules.implies))),
      ("requires", .strings(optionNames(rules.requires))),
    ]
    if let modes = rules.modes {
      members.append(("modes", .strings(Mode.allCases.filter(modes.contains).map(\.name))))
    }
    if !rules.categoryModes.isEmpty {
      let categories = Category.allCases.compactMap { category -> (String, JSON)? in
        rules.categoryModes[category].map {
          (category.name, .strings(Mode.allCases.filter($0.contains).map(\.name)))
        }
      }
      members.append(("categoryModes", .members(categories)))
    }
    members.append(("source", .string(rules.source)))
    return .members(members)
  }

  private func interactionsJSON() -> JSON {
    let interactions = table.interactions
    let rules = interactions.rules.map { rule in
      JSON.members([
        ("name", .string(rule.name)), ("incoming", matcherJSON(rule.incoming)),
        ("holder", matcherJSON(rule.holder)), ("action", .string(rule.action.rawValue)),
        ("source", .string(rule.source)),
      ])
    }
    return .members([
      ("rules", .array(rules)),
      (
        "call",
        .members([
          ("blocksActivation", categoryList(interactions.callBlocksActivation)),
          ("blocksSetCategory", categoryList(interactions.callBlocksSetCategory)),
        ])
      ),
      (
        "silencedBy",
        .members(
          [MuteReason.silentSwitch, .screenLock].map {
            ($0.rawValue, categoryList(interactions.silencedBy[$0] ?? []))
          })
      ),
      (
        "micMute",
        .members([
          ("interrupts", categoryList(interactions.micMuteInterrupts)),
          ("exemptOption", exemptOption(interactions.micMuteExemptOption)),
        ])
      ),
      ("vanishedApp", .string(interactions.vanishedApp.name)),
      // What the selected profile runs with (its override, else the value above).
      ("effectiveVanishedApp", .string(policy.vanishedApp.name)),
    ])
  }

  private func matcherJSON(_ matcher: SessionMatcher) -> JSON {
    var members: [(String, JSON)] = []
    if let categories = matcher.categories {
      members.append(("categories", categoryList(categories)))
    }
    if let modes = matcher.modes {
      members.append(("modes", .strings(Mode.allCases.filter(modes.contains).map(\.name))))
    }
    if let mixable = matcher.mixable { members.append(("mixable", .bool(mixable))) }
    if let options = matcher.options { members.append(("options", .strings(optionNames(options)))) }
    if let hasInput = matcher.hasInput { members.append(("hasInput", .bool(hasInput))) }
    if let hasOutput = matcher.hasOutput { members.append(("hasOutput", .bool(hasOutput))) }
    if let playing = matcher.playing { members.append(("playing", .bool(playing))) }
    return .members(members)
  }

  private func routesJSON() -> JSON {
    let routes = table.routes
    let categories = Category.allCases.map { category in
      var members: [(String, JSON)] = []
      if let route = routes.outputs[category] { members.append(("outputs", directionJSON(route))) }
      if let route = routes.inputs[category] { members.append(("inputs", directionJSON(route))) }
      return (category.name, JSON.members(members))
    }
    return .members([
      ("categories", .members(categories)),
      ("devicePortPreference", .strings(routes.devicePortPreference.map(\.name))),
      ("coupledPorts", portList(routes.coupledPorts)),
      ("overrideCategories", categoryList(routes.overrideCategories)),
      ("privateListeningPorts", portList(routes.privateListeningPorts)),
      ("pauseOnlyOnFallbackToBuiltIn", .bool(routes.pauseOnlyOnFallbackToBuiltIn)),
      (
        "pauseCategories",
        .array(
          Category.allCases.filter { routes.pauseCategories.contains($0) }.map { .string($0.name) })
      ),
      (
        "modeRoutes",
        .members(
          Mode.allCases.compactMap { mode in
            routes.modeRoutes[mode].map { route in
              (
                mode.name,
                JSON.members([
                  ("outputs", .string(route.output.name)), ("inputs", .string(route.input.name)),
                  ("secondary", .strings(route.secondary.map(\.name))),
                  ("source", .string(route.source)),
                ])
              )
            }
          })
      ),
    ])
  }

  private func directionJSON(_ route: DirectionRoute) -> JSON {
    let withOption = CategoryOption.allCases.compactMap { option in
      route.portsWithOption[option].map { (option.name, JSON.strings($0.map(\.name))) }
    }
    let builtInWithOption = CategoryOption.allCases.compactMap { option in
      route.builtInWithOption[option].map { (option.name, JSON.string($0.name)) }
    }
    var members: [(String, JSON)] = [
      ("ports", .strings(route.ports.map(\.name))), ("portsWithOption", .members(withOption)),
    ]
    if let builtIn = route.builtIn { members.append(("builtIn", .string(builtIn.name))) }
    members.append(("builtInWithOption", .members(builtInWithOption)))
    members.append(("all", .bool(route.all)))
    return .members(members)
  }

  private func devicesJSON() -> JSON {
    let devices = table.devices
    let presets = devices.presetOrder.compactMap { name -> (String, JSON)? in
      guard let preset = devices.presets[name] else { return nil }
      var members: [(String, JSON)] = [("displayName", .string(preset.displayName))]
      if let uid = preset.uid { members.append(("uid", .string(uid))) }
      let ports = preset.ports.map { port in
        JSON.members([
          ("type", .string(port.type.name)), ("direction", .string(port.direction.rawValue)),
          ("name", .string(port.name)),
        ])
      }
      members.append(("ports", .array(ports)))
      let properties = preset.pulseProperties.keys.sorted().map {
        ($0, JSON.string(preset.pulseProperties[$0] ?? ""))
      }
      members.append(("pulseProperties", .members(properties)))
      return (name, .members(members))
    }
    return .members([
      ("presets", .members(presets)), ("defaultDevices", .strings(devices.defaultDevices)),
    ])
  }

  /// apps.json's rules, in the file's shape (without `source`).
  private func appsJSON() -> JSON {
    .array(
      table.apps.rules.map { rule in
        let match = rule.match.keys.sorted().map { key -> (String, JSON) in
          (key, rule.match[key].flatMap { $0 }.map { JSON.string($0) } ?? .null)
        }
        var members: [(String, JSON)] = [("name", .string(rule.name)), ("match", .members(match))]
        switch rule.outcome {
        case .ignore:
          members.append(("ignore", .bool(true)))
        case .session(let category, let mode, let options, let policy, let call):
          members += [
            ("category", .string(category.name)), ("mode", .string(mode.name)),
            ("options", .strings(optionNames(options))), ("policy", .string(policy.name)),
            ("call", .bool(call)),
          ]
        }
        if let app = rule.app { members.insert(("app", .string(app)), at: 2) }
        if let silence = rule.inactiveAfterSilence {
          members.append(("inactiveAfterSilence", .int(silence)))
        }
        if let held = rule.heldAfterLastStream {
          members.append(("heldAfterLastStream", .int(held)))
        }
        return .members(members)
      })
  }

  /// One option name, as in interactions.json (a list if the set ever names several).
  private func exemptOption(_ options: CategoryOptions) -> JSON {
    let names = optionNames(options)
    return names.count == 1 ? .string(names[0]) : .strings(names)
  }

  private func categoryList(_ categories: Set<Category>) -> JSON {
    .strings(Category.allCases.filter(categories.contains).map(\.name))
  }

  private func portList(_ ports: Set<PortType>) -> JSON {
    .strings(PortType.allCases.filter(ports.contains).map(\.name))
  }

  private func cellName(_ cell: OptionCell) -> String {
    switch cell {
    case .allowed: "allowed"
    case .implied: "implied"
    case .forbidden: "forbidden"
    case .profileSwitch(let name): "switch:\(name)"
    }
  }

  private func cellName(_ cell: ModeCell) -> String {
    switch cell {
    case .allowed: "allowed"
    case .advisory: "advisory"
    case .forbidden: "forbidden"
    case .profileSwitch(let name): "switch:\(name)"
    }
  }
}

extension JSONValue {
  /// An object with these members, in this order.
  fileprivate static func members(_ members: [(String, JSONValue)]) -> JSONValue {
    .object(JSONObject(members))
  }
}
