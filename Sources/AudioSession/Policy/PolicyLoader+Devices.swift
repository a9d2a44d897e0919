// devices.json: the presets `simulate plug` attaches and the built-in devices present at start
// (docs/contract.md "Device presets"; PulseAudio properties from docs/pulseaudio.md §1.2 and §4).

extension PolicyLoader {
  /// Reads `devices.json`; nil when any part of it has a problem.
  static func readDevices(_ root: Node) -> DeviceCatalog? {
    guard let top = topLevel(root, required: ["presets", "defaultDevices", "hardware"]) else {
      return nil
    }
    var presets: [String: DevicePreset] = [:]
    var order: [String] = []
    var complete = false
    var uids: [String: String] = [:]
    if let presetsNode = top["presets"], let members = presetsNode.members() {
      complete = true
      if members.isEmpty {
        presetsNode.report("must list at least one device preset")
        complete = false
      }
      for (name, node) in members {
        guard Node.isIdentifier(name) else {
          node.report(
            """
            preset name '\(name)' must start with a letter and contain only letters, digits and \
            '_'
            """
          )
          complete = false
          continue
        }
        order.append(name)
        guard let preset = readPreset(name, node) else {
          complete = false
          continue
        }
        if let uid = preset.uid {
          if let other = uids[uid] {
            node.diagnostics.report(
              node.childPath("uid"), "uid '\(uid)' is already used by preset '\(other)'")
            complete = false
          }
          uids[uid] = name
        }
        presets[name] = preset
      }
    }
    var defaults: [String]?
    if let listNode = top["defaultDevices"], let elements = listNode.array() {
      var names: [String] = []
      for element in elements {
        guard let name = element.text() else { continue }
        if names.contains(name) {
          element.report("preset '\(name)' is listed twice")
        } else if !order.contains(name) {
          element.report("unknown preset '\(name)'; valid: \(order.joined(separator: ", "))")
        } else {
          names.append(name)
        }
      }
      if names.count == elements.count { defaults = names }
    }
    let hardware = top["hardware"].flatMap(readHardware)
    guard complete, let defaults, let hardware else { return nil }
    return DeviceCatalog(
      presets: presets, presetOrder: order, defaultDevices: defaults, hardware: hardware)
  }

  /// `hardware`: the simulated hardware's values; nil when any of them has a problem (each is
  /// reported).
  private static func readHardware(_ node: Node) -> SimulatedHardware? {
    guard
      let fields = node.object(required: [
        "sampleRate", "sampleRates", "ioBufferFrames", "ioBufferDurations", "channels",
        "defaultChannels", "dataSources", "polarPatternChannels", "inputGain",
        "aggregatedIOCategories",
        "echoCancelledInput", "source",
      ])
    else { return nil }
    func range(_ key: String) -> ClosedRange<Double>? {
      guard let node = fields[key], let elements = node.array() else { return nil }
      let numbers = elements.compactMap { $0.positiveNumber() }
      guard numbers.count == elements.count else { return nil }
      guard numbers.count == 2, numbers[0] <= numbers[1] else {
        node.report("expected [lowest, highest], two numbers in order")
        return nil
      }
      return numbers[0]...numbers[1]
    }
    func channelCount(_ node: Node) -> Int? {
      guard let count = node.positiveNumber() else { return nil }
      guard count == count.rounded() else {
        node.report("expected a whole number of channels")
        return nil
      }
      return Int(count)
    }
    var rate = fields["sampleRate"]?.positiveNumber()
    let rates = range("sampleRates")
    if let value = rate, let rates, !rates.contains(value) {
      fields["sampleRate"]?.report("\(value) is outside sampleRates")
      rate = nil
    }
    let frames = fields["ioBufferFrames"]?.positiveNumber()
    let durations = range("ioBufferDurations")
    var channels: [PortType: Int]? = [:]
    if let rows: [(name: PortType, node: Node)] = fields["channels"]?.namedMap(
      "port type", requireEvery: false)
    {
      for (type, row) in rows {
        if let count = channelCount(row) { channels?[type] = count } else { channels = nil }
      }
    } else {
      channels = nil
    }
    let defaultChannels = fields["defaultChannels"].flatMap(channelCount)
    var dataSources: [PortType: [DataSourceSpec]]? = [:]
    if let rows: [(name: PortType, node: Node)] = fields["dataSources"]?.namedMap(
      "port type", requireEvery: false)
    {
      for (type, row) in rows {
        guard let elements = row.array(), !elements.isEmpty else {
          row.report("expected a list of data sources, the first selected at start")
          dataSources = nil
          continue
        }
        let read = elements.map { ($0, readDataSource($0)) }
        let sources = read.compactMap(\.1)
        var names = Set<String>()
        for (element, source) in read {
          guard let source, !names.insert(source.name).inserted else { continue }
          element.report("the data source '\(source.name)' is listed twice")
          dataSources = nil
        }
        if sources.count == elements.count {
          dataSources?[type] = sources
        } else {
          dataSources = nil
        }
      }
    } else {
      dataSources = nil
    }
    var patternChannels: [PolarPattern: Int]? = [:]
    if let rows: [(name: PolarPattern, node: Node)] = fields["polarPatternChannels"]?.namedMap(
      "polar pattern", requireEvery: true)
    {
      for (pattern, row) in rows {
        if let count = channelCount(row) {
          patternChannels?[pattern] = count
        } else {
          patternChannels = nil
        }
      }
    } else {
      patternChannels = nil
    }
    var gain = fields["inputGain"]?.positiveNumber()
    if let value = gain, value > 1 {
      fields["inputGain"]?.report("an input gain is at most 1.0, found \(value)")
      gain = nil
    }
    let categories: [Category]? = fields["aggregatedIOCategories"]?.names("category")
    let echo = fields["echoCancelledInput"].flatMap(readEchoCancelledInput)
    guard fields["source"]?.text() != nil, let rate, let rates, let frames, let durations,
      let channels, let defaultChannels, let dataSources, let patternChannels, let gain,
      let categories, let echo
    else { return nil }
    return SimulatedHardware(
      sampleRate: rate, sampleRates: rates, ioBufferDuration: frames / rate,
      ioBufferDurations: durations, channels: channels, defaultChannels: defaultChannels,
      dataSources: dataSources, polarPatternChannels: patternChannels, inputGain: gain,
      aggregatedIOCategories: Set(categories), echoCancelledInput: echo)
  }

  /// One data source of `hardware.dataSources`: `name`, optional `location` and `orientation`,
  /// `polarPatterns` (may be empty) and `polarPattern`, the one selected at start, which must be
  /// among them (and present exactly when they are not empty); nil when any has a problem.
  private static func readDataSource(_ node: Node) -> DataSourceSpec? {
    guard
      let fields = node.object(
        required: ["name", "polarPatterns"], optional: ["location", "orientation", "polarPattern"])
    else { return nil }
    let name = fields["name"]?.identifier("data source")
    var location: DataSourceLocation?? = .some(nil)
    if let field = fields["location"] { location = field.name("location").map { .some($0) } }
    var orientation: DataSourceOrientation?? = .some(nil)
    if let field = fields["orientation"] {
      orientation = field.name("orientation").map { .some($0) }
    }
    let patterns: [PolarPattern]? = fields["polarPatterns"]?.names("polar pattern")
    var start: PolarPattern?? = .some(nil)
    if let field = fields["polarPattern"] { start = field.name("polar pattern").map { .some($0) } }
    guard let name, let location, let orientation, let patterns, let start else { return nil }
    switch start {
    case nil where !patterns.isEmpty:
      node.report("'polarPattern' (the one selected at start) is required with polarPatterns")
      return nil
    case let pattern? where !patterns.contains(pattern):
      let listed = patterns.map(\.name).joined(separator: ", ")
      fields["polarPattern"]?.report("'\(pattern.name)' is not among polarPatterns (\(listed))")
      return nil
    default:
      break
    }
    return DataSourceSpec(
      name: name, location: location, orientation: orientation, polarPatterns: patterns,
      polarPattern: start)
  }

  /// `hardware.echoCancelledInput`: `modes` (each category that may prefer it, with its modes)
  /// and `inputPorts`; nil when either has a problem.
  private static func readEchoCancelledInput(_ node: Node) -> EchoCancelledInputRules? {
    guard let fields = node.object(required: ["modes", "inputPorts", "source"]) else {
      return nil
    }
    var modes: [Category: Set<Mode>]? = [:]
    if let rows: [(name: Category, node: Node)] = fields["modes"]?.namedMap(
      "category", requireEvery: false)
    {
      for (category, row) in rows {
        if let names: [Mode] = row.names("mode") {
          modes?[category] = Set(names)
        } else {
          modes = nil
        }
      }
    } else {
      modes = nil
    }
    let ports: [PortType]? = fields["inputPorts"]?.names("port type")
    guard fields["source"]?.text() != nil, let modes, let ports else { return nil }
    return EchoCancelledInputRules(modes: modes, inputPorts: Set(ports))
  }

  private static func readPreset(_ name: String, _ node: Node) -> DevicePreset? {
    guard
      let fields = node.object(
        required: ["displayName", "ports", "pulseProperties", "source"], optional: ["uid"])
    else { return nil }
    let displayName = fields["displayName"]?.text()
    let source = fields["source"]?.text()
    var uid: String?
    var valid = displayName != nil && source != nil
    if let uidNode = fields["uid"] {
      uid = uidNode.text()
      if let text = uid, text.contains(where: { $0.isWhitespace || $0 == ":" }) {
        uidNode.report("uid '\(text)' must not contain spaces or ':' (port UIDs append ':<port>')")
        uid = nil
      }
      valid = valid && uid != nil
    }
    var ports: [PresetPort] = []
    if let portsNode = fields["ports"], let elements = portsNode.array() {
      if elements.isEmpty {
        portsNode.report("a device needs at least one port")
        valid = false
      }
      for element in elements {
        guard let port = readPresetPort(element) else {
          valid = false
          continue
        }
        if ports.contains(where: { $0.type == port.type && $0.direction == port.direction }) {
          element.report(
            "the device already has a '\(port.type.name)' \(port.direction.rawValue) port")
          valid = false
          continue
        }
        ports.append(port)
      }
    } else {
      valid = false
    }
    if valid, let portsNode = fields["ports"] {
      valid = checkBuiltIn(ports, uid: uid, portsNode: portsNode, node: node)
    }
    let properties = fields["pulseProperties"].flatMap(readPulseProperties)
    guard valid, let displayName, let properties else { return nil }
    return DevicePreset(
      name: name, displayName: displayName, ports: ports, uid: uid, pulseProperties: properties)
  }

  /// Built-in devices have fixed UIDs and only built-in ports; plugged ones neither.
  private static func checkBuiltIn(
    _ ports: [PresetPort], uid: String?, portsNode: Node, node: Node
  ) -> Bool {
    let builtIn = ports.filter(\.type.isBuiltIn)
    if !builtIn.isEmpty, builtIn.count != ports.count {
      portsNode.report("a device cannot mix built-in and external ports")
      return false
    }
    if !builtIn.isEmpty, uid == nil {
      node.diagnostics.report(
        node.childPath("uid"),
        """
        missing required key 'uid': a built-in device has a fixed UID (such as \
        \"builtin-speaker\")
        """
      )
      return false
    }
    if builtIn.isEmpty, uid != nil {
      node.diagnostics.report(
        node.childPath("uid"),
        "only built-in devices have a fixed uid; plugged devices get '<preset>-<n>'")
      return false
    }
    return true
  }

  private static func readPresetPort(_ node: Node) -> PresetPort? {
    guard let fields = node.object(required: ["type", "direction", "name"]) else { return nil }
    let type: PortType? = fields["type"]?.name("port type")
    let name = fields["name"]?.text()
    var direction: PortDirection?
    if let directionNode = fields["direction"], let text = directionNode.text() {
      direction = PortDirection(rawValue: text)
      if direction == nil {
        directionNode.report("unknown direction '\(text)'; valid: input, output")
      }
    }
    guard let type, let direction, let name else { return nil }
    guard directions(of: type).contains(direction) else {
      let valid = directions(of: type).map(\.rawValue).sorted().joined(separator: ", ")
      fields["direction"]?.report(
        "a '\(type.name)' port cannot be an \(direction.rawValue); valid: \(valid)")
      return nil
    }
    return PresetPort(type: type, direction: direction, name: name)
  }

  /// String properties for `sink_properties=` / `source_properties=` (docs/pulseaudio.md §1.2).
  private static func readPulseProperties(_ node: Node) -> [String: String]? {
    guard let members = node.members() else { return nil }
    var properties: [String: String] = [:]
    var valid = true
    for (key, valueNode) in members {
      let keyIsValid =
        !key.isEmpty
        && key.unicodeScalars.allSatisfy {
          $0.isASCII
            && ($0.properties.isAlphabetic || $0.properties.numericType != nil
              || $0 == "." || $0 == "_" || $0 == "-")
        }
      guard keyIsValid else {
        valueNode.report(
          "PulseAudio property name '\(key)' may contain only letters, digits, '.', '_' and '-'")
        valid = false
        continue
      }
      guard let value = valueNode.text() else {
        valid = false
        continue
      }
      if value.contains(where: { $0 == "\"" || $0 == "'" || $0 == "\\" || $0.isNewline }) {
        valueNode.report(
          "must not contain quotes, backslashes or line breaks (module arguments cannot quote them)"
        )
        valid = false
        continue
      }
      properties[key] = value
    }
    if properties["device.description"] == nil, valid {
      node.diagnostics.report(
        node.childPath("device.description"),
        "missing required key 'device.description' (the device name PulseAudio shows)")
      valid = false
    }
    return valid ? properties : nil
  }
}
