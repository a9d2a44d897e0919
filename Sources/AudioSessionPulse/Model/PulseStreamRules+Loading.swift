/// Reading the `streams` section of `policies/pulse.json`, with the policy loader's reader.
import AudioSession

extension PulseStreamRules {
  private typealias Node = PolicyLoader.Node

  /// The section's typed contents, or nil after reporting every problem found.
  static func read(_ node: PolicyLoader.Node) -> PulseStreamRules? {
    guard
      let fields = node.object(
        required: ["roles", "duckDecibels", "callRoles"], optional: ["source", "movable"])
    else { return nil }
    _ = fields["source"]?.text()
    let roles = fields["roles"].flatMap(readRoles)
    let decibels = fields["duckDecibels"].flatMap(readDecibels)
    let callRoles = fields["callRoles"].flatMap(readCallRoles)
    let movable: Bool?? = fields["movable"].map { $0.bool() }
    guard let roles, let decibels, let callRoles, movable != .some(nil) else { return nil }
    return PulseStreamRules(
      categoryRoles: roles.categories, modeRoles: roles.modes, duckDecibels: decibels,
      callRoles: callRoles, movable: (movable ?? false) ?? false)
  }

  private static func readRoles(
    _ node: Node
  ) -> (categories: [Category: String], modes: [Mode: String])? {
    guard let fields = node.object(required: ["categories", "modes"]) else { return nil }
    let categories: [Category: String]? = fields["categories"].flatMap {
      readRoleMap($0, kind: "category", requireEvery: true)
    }
    let modes: [Mode: String]? = fields["modes"].flatMap {
      readRoleMap($0, kind: "mode", requireEvery: false)
    }
    guard let categories, let modes else { return nil }
    return (categories, modes)
  }

  private static func readRoleMap<T: NamedCase>(
    _ node: Node, kind: String, requireEvery: Bool
  ) -> [T: String]? {
    let problemsBefore = node.diagnostics.problems.count
    guard
      let entries: [(name: T, node: Node)] = node.namedMap(
        kind, requireEvery: requireEvery, missing: "missing media.role")
    else { return nil }
    var roles: [T: String] = [:]
    for entry in entries {
      if let role = entry.node.text() { roles[entry.name] = role }
    }
    return node.diagnostics.problems.count == problemsBefore ? roles : nil
  }

  /// A negative number of decibels, at most 90 dB down (PulseAudio's volumes reach silence
  /// around -100 dB).
  private static func readDecibels(_ node: Node) -> Double? {
    guard let value = node.value.number else {
      node.report("expected a number of decibels (e.g. -20), found \(node.value.kindName)")
      return nil
    }
    guard value < 0, value >= -90 else {
      node.report("must be below 0 and at least -90 dB (ducking lowers the volume); found \(value)")
      return nil
    }
    return value
  }

  private static func readCallRoles(_ node: Node) -> Set<String>? {
    guard let elements = node.array() else { return nil }
    guard !elements.isEmpty else {
      node.report("must list at least one media.role (e.g. phone)")
      return nil
    }
    let roles = elements.compactMap { $0.text() }
    return roles.count == elements.count ? Set(roles) : nil
  }
}
