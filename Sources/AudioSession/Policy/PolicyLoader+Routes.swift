// routes.json: route preferences per category and the rules that cut across them
// (docs/avaudiosession.md §7).

extension PolicyLoader {
  /// The directions a port type can carry (docs/avaudiosession.md §7.2). bluetoothLE is listed
  /// under outputs by the header but is an input and output secondary route in dualRoute, so both
  /// are accepted.
  static func directions(of port: PortType) -> Set<PortDirection> {
    switch port {
    case .builtInMic, .headsetMic, .lineIn, .continuityMicrophone: [.input]
    case .builtInReceiver, .builtInSpeaker, .headphones, .lineOut, .bluetoothA2DP, .HDMI, .airPlay:
      [.output]
    case .bluetoothLE, .bluetoothHFP, .usbAudio, .carAudio, .virtual, .PCI, .fireWire,
      .displayPort, .AVB, .thunderbolt:
      [.input, .output]
    }
  }

  /// `routeSharing`: the long-form policies' limits, and the policies apps may not set.
  static func readRouteSharing(
    _ node: Node
  ) -> (limits: [RouteSharingPolicy: RouteSharingLimits], refused: Set<RouteSharingPolicy>)? {
    let policies = RouteSharingPolicy.allCases.filter { $0 != .default }.map(\.name)
    guard let fields = node.object(required: ["refused", "source"], optional: policies) else {
      return nil
    }
    var limits: [RouteSharingPolicy: RouteSharingLimits] = [:]
    var complete = fields["source"]?.text() != nil
    let refused: [RouteSharingPolicy]? = fields["refused"]?.names("route-sharing policy")
    complete = complete && refused != nil
    for policy in RouteSharingPolicy.allCases {
      guard let row = fields[policy.name] else { continue }
      guard
        let members = row.object(required: ["categories", "modes", "allowsOptions", "source"])
      else {
        complete = false
        continue
      }
      let categories: [Category]? = members["categories"]?.names("category", allowEmpty: false)
      let modes: [Mode]? = members["modes"]?.names("mode", allowEmpty: false)
      let allowsOptions = members["allowsOptions"]?.bool()
      guard let categories, let modes, let allowsOptions, members["source"]?.text() != nil else {
        complete = false
        continue
      }
      limits[policy] = RouteSharingLimits(
        categories: Set(categories), modes: Set(modes), allowsOptions: allowsOptions)
    }
    guard complete, let refused else { return nil }
    return (limits, Set(refused))
  }

  /// Reads `routes.json`; nil when any part of it has a problem.
  static func readRoutes(_ root: Node) -> RouteRules? {
    guard
      let top = topLevel(
        root,
        required: [
          "categories", "devicePortPreference", "coupledPorts", "overrideCategories",
          "privateListeningPorts", "pauseOnlyOnFallbackToBuiltIn", "pauseCategories",
          "routeSharing", "source",
        ], optional: ["modeRoutes"])
    else { return nil }
    var outputs: [Category: DirectionRoute] = [:]
    var inputs: [Category: DirectionRoute] = [:]
    var complete = false
    if let rows: [(name: Category, node: Node)] = top["categories"]?.namedMap(
      "category", requireEvery: true, missing: "missing row")
    {
      complete = rows.count == Category.allCases.count
      for (category, node) in rows {
        guard let row = node.object(required: ["source"], optional: ["outputs", "inputs"]) else {
          complete = false
          continue
        }
        for (key, direction) in [("outputs", PortDirection.output), ("inputs", .input)] {
          guard let directionNode = row[key] else { continue }
          guard let route = readDirection(directionNode, direction) else {
            complete = false
            continue
          }
          if direction == .output { outputs[category] = route } else { inputs[category] = route }
        }
        if row["source"]?.text() == nil { complete = false }
      }
    }
    let preference: [PortType]? = top["devicePortPreference"]?.names("port type")
    let coupled: [PortType]? = top["coupledPorts"]?.names("port type")
    for (index, port) in (coupled ?? []).enumerated() where directions(of: port).count < 2 {
      top.node.diagnostics.report(
        "coupledPorts[\(index)]",
        """
        '\(port.name)' cannot be coupled: coupling pairs an input and an output of the same port \
        type, and it has only one direction
        """
      )
    }
    let overrides: [Category]? = top["overrideCategories"]?.names("category")
    let privatePorts: [PortType]? = top["privateListeningPorts"]?.names("port type")
    let pause = top["pauseOnlyOnFallbackToBuiltIn"]?.bool()
    let pauseCategories: [Category]? = top["pauseCategories"]?.names("category")
    let source = top["source"]?.text()
    let sharing = top["routeSharing"].flatMap(readRouteSharing)
    let modeRoutes = top["modeRoutes"].map(readModeRoutes) ?? [:]
    guard complete, let modeRoutes, let preference, let coupled, let overrides, let privatePorts,
      let pause,
      let pauseCategories, let sharing,
      source != nil, coupled.allSatisfy({ directions(of: $0).count == 2 })
    else { return nil }
    var rules = RouteRules(
      outputs: outputs, inputs: inputs, devicePortPreference: preference,
      coupledPorts: Set(coupled), overrideCategories: Set(overrides),
      privateListeningPorts: Set(privatePorts), pauseOnlyOnFallbackToBuiltIn: pause,
      pauseCategories: Set(pauseCategories))
    rules.routeSharing = sharing.limits
    rules.refusedPolicies = sharing.refused
    rules.modeRoutes = modeRoutes
    return rules
  }

  /// `modeRoutes`: mode name → its own route (dualRoute); nil when any has a problem.
  private static func readModeRoutes(_ node: Node) -> [Mode: ModeRoute]? {
    guard let rows: [(name: Mode, node: Node)] = node.namedMap("mode", requireEvery: false)
    else { return nil }
    var routes: [Mode: ModeRoute] = [:]
    var valid = true
    for (mode, row) in rows {
      guard
        let fields = row.object(required: ["outputs", "inputs", "secondary", "source"]),
        let output = fields["outputs"].flatMap({ builtInPort($0, .output) }),
        let input = fields["inputs"].flatMap({ builtInPort($0, .input) }),
        let secondaryNode = fields["secondary"],
        let secondary: [PortType] = secondaryNode.names("port type", allowEmpty: false),
        let source = fields["source"]?.text()
      else {
        valid = false
        continue
      }
      for (index, port) in secondary.enumerated() where port.isBuiltIn {
        secondaryNode.diagnostics.report(
          "\(secondaryNode.path)[\(index)]",
          "'\(port.name)' is a built-in port; the primary route names the built-in ones")
        valid = false
      }
      routes[mode] = ModeRoute(output: output, input: input, secondary: secondary, source: source)
    }
    return valid ? routes : nil
  }

  private static func readDirection(_ node: Node, _ direction: PortDirection) -> DirectionRoute? {
    guard
      let fields = node.object(
        required: ["ports"], optional: ["portsWithOption", "builtIn", "builtInWithOption", "all"])
    else { return nil }
    var valid = true
    let ports = fields["ports"].flatMap { externalPorts($0, direction) }
    valid = valid && ports != nil

    var portsWithOption: [CategoryOption: [PortType]] = [:]
    if let mapNode = fields["portsWithOption"] {
      let entries: [(name: CategoryOption, node: Node)]? = mapNode.namedMap(
        "option", requireEvery: false)
      valid = valid && entries != nil
      for (option, listNode) in entries ?? [] {
        guard let extra = externalPorts(listNode, direction) else {
          valid = false
          continue
        }
        for (index, port) in extra.enumerated() where ports?.contains(port) == true {
          listNode.diagnostics.report(
            "\(listNode.path)[\(index)]",
            "'\(port.name)' is already eligible through ports; list it in one place only")
          valid = false
        }
        portsWithOption[option] = extra
      }
    }

    var builtIn: PortType?
    if let builtInNode = fields["builtIn"] {
      builtIn = builtInPort(builtInNode, direction)
      valid = valid && builtIn != nil
    }

    var builtInWithOption: [CategoryOption: PortType] = [:]
    if let mapNode = fields["builtInWithOption"] {
      let entries: [(name: CategoryOption, node: Node)]? = mapNode.namedMap(
        "option", requireEvery: false)
      valid = valid && entries != nil
      for (option, portNode) in entries ?? [] {
        guard let port = builtInPort(portNode, direction) else {
          valid = false
          continue
        }
        builtInWithOption[option] = port
      }
    }

    var all = false
    if let allNode = fields["all"] {
      let flag = allNode.bool()
      valid = valid && flag != nil
      all = flag ?? false
    }
    guard valid, let ports else { return nil }
    return DirectionRoute(
      ports: ports, portsWithOption: portsWithOption, builtIn: builtIn,
      builtInWithOption: builtInWithOption, all: all)
  }

  /// A list of external port types that can carry `direction`.
  private static func externalPorts(_ node: Node, _ direction: PortDirection) -> [PortType]? {
    guard let ports: [PortType] = node.names("port type") else { return nil }
    var valid = true
    for (index, port) in ports.enumerated() {
      let path = "\(node.path)[\(index)]"
      if port.isBuiltIn {
        node.diagnostics.report(
          path, "'\(port.name)' is a built-in port; name it in builtIn or builtInWithOption")
        valid = false
      } else if !directions(of: port).contains(direction) {
        node.diagnostics.report(
          path,
          "'\(port.name)' is not an \(direction.rawValue) port; valid: \(externalNames(direction))")
        valid = false
      }
    }
    return valid ? ports : nil
  }

  /// One built-in port type that can carry `direction`.
  private static func builtInPort(_ node: Node, _ direction: PortDirection) -> PortType? {
    guard let port: PortType = node.name("port type") else { return nil }
    let valid = PortType.allCases.filter { $0.isBuiltIn && directions(of: $0).contains(direction) }
    guard valid.contains(port) else {
      node.report(
        """
        '\(port.name)' is not a built-in \(direction.rawValue) port; valid: \
        \(valid.map(\.name).joined(separator: ", "))
        """
      )
      return nil
    }
    return port
  }

  private static func externalNames(_ direction: PortDirection) -> String {
    PortType.allCases.filter { !$0.isBuiltIn && directions(of: $0).contains(direction) }
      .map(\.name).joined(separator: ", ")
  }
}
