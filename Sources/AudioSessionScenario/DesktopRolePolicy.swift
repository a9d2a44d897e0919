/// WirePlumber 0.5's role policy as its example `media-role-nodes.conf` sets it up
/// (docs/pulseaudio.md §2.2, docs/apps.md "Beside WirePlumber's role policy"), for what a
/// scenario hears with `simulate role-policy on`: a role sink per role, and while a stream plays
/// (uncorked, muted or not) on a role sink, the streams on role sinks of lower priority are
/// ducked or corked by that sink's `policy.role-based.action.lower-priority`.
///
/// This is another program's configuration, not the project's policy: the daemon reads the real
/// one from the server (`PulseLoopbacks.swift`); a scenario has no server to read it from, so
/// the example's table is written here, as WirePlumber 0.5.8 ships it.
public struct DesktopRolePolicy: Sendable, Hashable {
  /// What a role sink does to the streams of lower roles while one of its own plays.
  public enum Action: String, Sendable, Hashable {
    case mix, duck, cork
  }

  /// One role sink: its priority, the PipeWire roles it takes, its action on lower ones.
  public struct RoleSink: Sendable, Hashable {
    public var name: String
    public var priority: Int
    public var roles: [String]
    public var lowerPriority: Action
  }

  /// The example's role sinks (`loopback.sink.role.…`).
  public static let sinks: [RoleSink] = [
    RoleSink(
      name: "multimedia", priority: 10, roles: ["Music", "Movie", "Game", "Multimedia"],
      lowerPriority: .mix),
    RoleSink(name: "notification", priority: 20, roles: ["Notification"], lowerPriority: .mix),
    RoleSink(name: "navigation", priority: 30, roles: ["Navigation", "GPS"], lowerPriority: .duck),
    RoleSink(name: "assistant", priority: 40, roles: ["Assistant"], lowerPriority: .cork),
    RoleSink(
      name: "communication", priority: 50, roles: ["Communication", "Phone"],
      lowerPriority: .cork),
    RoleSink(name: "alert", priority: 60, roles: ["Alert", "Emergency"], lowerPriority: .cork),
  ]

  /// WirePlumber's level for a ducked role (`linking.role-based.duck-level`'s default).
  public static let duckLevel = 0.3

  /// The PipeWire role pipewire-pulse gives a PulseAudio client's `media.role`
  /// (docs/apps.md "PipeWire roles"); any other role passes as it is.
  static let pipeWireRoles = [
    "music": "Music", "video": "Movie", "game": "Game", "phone": "Communication",
    "event": "Notification", "a11y": "Accessibility", "production": "Production", "test": "Test",
  ]

  /// The role sink a stream of this `media.role` plays on: the one that lists its PipeWire
  /// role; a stream with no role, or a role no sink lists, reaches the example's default,
  /// multimedia.
  public static func sink(forRole role: String?) -> RoleSink {
    let pipeWire = role.map { pipeWireRoles[$0] ?? $0 } ?? "Multimedia"
    return sinks.first { $0.roles.contains(pipeWire) } ?? sinks[0]
  }

  /// What the policy does to a stream of `role` while streams of `playing` roles play (its
  /// own included): the action of the highest-priority other role sink with a playing stream,
  /// when that sink is above the stream's own; else `mix`.
  public static func action(forRole role: String?, playing: [String?]) -> Action {
    let own = sink(forRole: role)
    let above = playing.map(sink(forRole:)).filter { $0.priority > own.priority }
    return above.max { $0.priority < $1.priority }?.lowerPriority ?? .mix
  }
}
