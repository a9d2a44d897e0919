/// What a session's route depends on, besides the devices.
struct RouteKey: Hashable, Sendable {
  var category: Category
  /// The mode, only when it has a route of its own (`routes.json` `modeRoutes`).
  var mode: Mode?
  var options: CategoryOptions
  var speakerOverride: Bool
  var preferredInput: String?
  /// The device the user chose (for this session, else for every session) per direction.
  var chosenOutput: String?
  var chosenInput: String?
}

/// Computes routes from the policy's route rules (docs/avaudiosession.md §7.3–§7.5). Pure.
struct Router: Sendable {
  let rules: RouteRules
  let speakerBeatsHeadphones: Bool

  /// The route for a session with `key` when `devices` are connected (connection order).
  func route(for key: RouteKey, devices: [Device]) -> RouteDescription {
    if let mode = key.mode, let modeRoute = rules.modeRoutes[mode] {
      return route(modeRoute, devices: devices)
    }
    let outputRule = rules.outputs[key.category]
    let inputRule = rules.inputs[key.category]
    if key.speakerOverride {
      // QA1754: the speaker override routes to built-in speaker and built-in mic.
      return RouteDescription(
        inputs: inputRule == nil ? [] : builtIn(.builtInMic, .input, devices).map { [$0] } ?? [],
        outputs: outputRule == nil
          ? [] : builtIn(.builtInSpeaker, .output, devices).map { [$0] } ?? [])
    }
    let forcedBuiltIn =
      speakerBeatsHeadphones && key.options.contains(.defaultToSpeaker)
      && outputRule?.builtInWithOption[.defaultToSpeaker] != nil
    var outputs =
      outputRule.map { select($0, .output, key, devices, builtInOnly: forcedBuiltIn) } ?? []
    var inputs =
      inputRule.map { select($0, .input, key, devices, builtInOnly: forcedBuiltIn) } ?? []

    // Coupled ports (HFP): input and output on the same device; the input's choice leads,
    // unless the output chosen is on separate hardware connected later (an A2DP device after an
    // HFP headset: last in wins, docs/avaudiosession.md §4.4 allowBluetoothA2DP) and the app did
    // not prefer that input itself.
    if let input = inputs.first, let device = owner(of: input, devices),
      rules.coupledPorts.contains(input.type), let outputRule,
      let partner = device.ports.first(where: { $0.direction == .output && $0.type == input.type }),
      eligible(outputRule, key.options).contains(partner.type),
      key.preferredInput == input.uid || !isLaterSeparate(outputs.first, than: device, devices)
    {
      outputs = [partner]
    } else if let output = outputs.first, outputs.count == 1,
      let device = owner(of: output, devices),
      rules.coupledPorts.contains(output.type), let inputRule,
      let partner = device.ports.first(where: { $0.direction == .input && $0.type == output.type }),
      eligible(inputRule, key.options).contains(partner.type)
    {
      if let preferred = key.preferredInput, inputs.first?.uid == preferred, let outputRule {
        // The app's preferred input leads (§7.6): a coupled output cannot stay without its
        // input, so the output goes where it would without that device.
        outputs = select(
          outputRule, .output, key, devices.filter { $0.uid != device.uid }, builtInOnly: false)
      } else {
        inputs = [partner]
      }
    }
    return RouteDescription(inputs: inputs.map(\.description), outputs: outputs.map(\.description))
  }

  /// A mode's own route (dualRoute): the built-in ports, then the ports of the last connected
  /// device that offers both directions among the second route's types.
  private func route(_ rule: ModeRoute, devices: [Device]) -> RouteDescription {
    var outputs = builtIn(rule.output, .output, devices).map { [$0] } ?? []
    var inputs = builtIn(rule.input, .input, devices).map { [$0] } ?? []
    let types = Set(rule.secondary)
    for device in devices.reversed() {
      guard let output = best(device, .output, types), let input = best(device, .input, types)
      else { continue }
      outputs.append(output.description)
      inputs.append(input.description)
      break
    }
    return RouteDescription(inputs: inputs, outputs: outputs)
  }

  /// Input ports a session may prefer (`availableInputs`).
  func availableInputs(for key: RouteKey, devices: [Device]) -> [DevicePort] {
    guard let rule = rules.inputs[key.category] else { return [] }
    let types = eligible(rule, key.options)
    return devices.flatMap(\.ports).filter {
      $0.direction == .input && (types.contains($0.type) || $0.type.isBuiltIn)
    }
  }

  func eligible(_ rule: DirectionRoute, _ options: CategoryOptions) -> Set<PortType> {
    var types = Set(rule.ports)
    for (option, extra) in rule.portsWithOption where options.contains(option.bits) {
      types.formUnion(extra)
    }
    return types
  }

  private func select(
    _ rule: DirectionRoute, _ direction: PortDirection, _ key: RouteKey, _ devices: [Device],
    builtInOnly: Bool
  ) -> [DevicePort] {
    let types = eligible(rule, key.options)
    if !builtInOnly {
      if direction == .input, let preferred = key.preferredInput,
        let port = devices.lazy.flatMap(\.ports).first(where: {
          $0.uid == preferred && $0.direction == .input
        }),
        types.contains(port.type) || port.type.isBuiltIn
      {
        return [port]
      }
      if rule.all {
        let all = devices.flatMap { best($0, direction, types).map { [$0] } ?? [] }
        if !all.isEmpty { return all }
      } else {
        // The user's choice, when the category can route there: an eligible port of that
        // device, or the category's built-in port if the device is a built-in one.
        if let uid = direction == .output ? key.chosenOutput : key.chosenInput,
          let device = devices.first(where: { $0.uid == uid }),
          let port = best(device, direction, types)
            ?? builtInPort(rule, direction, key, [device])
        {
          return [port]
        }
        // Last in wins (QA1754): the most recently connected device with an eligible port.
        for device in devices.reversed() {
          if let port = best(device, direction, types) { return [port] }
        }
      }
    }
    return builtInPort(rule, direction, key, devices).map { [$0] } ?? []
  }

  /// The category's built-in port among `devices`: the one an option asks for, the category's
  /// own, else any built-in port of the direction.
  private func builtInPort(
    _ rule: DirectionRoute, _ direction: PortDirection, _ key: RouteKey, _ devices: [Device]
  ) -> DevicePort? {
    var candidates: [PortType] = []
    for (option, port) in rule.builtInWithOption.sorted(by: {
      $0.key.bits.rawValue < $1.key.bits.rawValue
    })
    where key.options.contains(option.bits) {
      candidates.append(port)
    }
    if let port = rule.builtIn { candidates.append(port) }
    // A device without the preferred built-in port (no receiver: iPad) uses another built-in one.
    candidates += PortType.allCases.filter { $0.isBuiltIn }
    for type in candidates {
      if let port = devices.lazy.flatMap(\.ports).first(where: {
        $0.type == type && $0.direction == direction
      }) {
        return port
      }
    }
    return nil
  }

  /// The device's best eligible external port in a direction (HFP over A2DP, §4.4).
  private func best(_ device: Device, _ direction: PortDirection, _ types: Set<PortType>)
    -> DevicePort?
  {
    let ports = device.ports.filter {
      $0.direction == direction && !$0.type.isBuiltIn && types.contains($0.type)
    }
    guard ports.count > 1 else { return ports.first }
    let preference = rules.devicePortPreference
    return ports.min { a, b in
      (preference.firstIndex(of: a.type) ?? preference.count)
        < (preference.firstIndex(of: b.type) ?? preference.count)
    }
  }

  private func builtIn(_ type: PortType, _ direction: PortDirection, _ devices: [Device])
    -> PortDescription?
  {
    devices.lazy.flatMap(\.ports).first { $0.type == type && $0.direction == direction }?
      .description
  }

  /// Whether `port` is an external port of another device, connected after `device`.
  private func isLaterSeparate(_ port: DevicePort?, than device: Device, _ devices: [Device])
    -> Bool
  {
    guard let port, !port.type.isBuiltIn, let other = owner(of: port, devices),
      other.uid != device.uid,
      let later = devices.firstIndex(where: { $0.uid == other.uid }),
      let earlier = devices.firstIndex(where: { $0.uid == device.uid })
    else { return false }
    return later > earlier
  }

  private func owner(of port: DevicePort, _ devices: [Device]) -> Device? {
    devices.first { $0.ports.contains(port) }
  }
}
