/// Virtual sinks that are routes, not devices (docs/pulseaudio.md §2.2): a sink whose output is a
/// loopback stream onto another sink, as WirePlumber 0.5's role sinks are
/// (`input.loopback.sink.role.multimedia` …), or a filter's sink. A stream on such a sink is heard
/// on the sink behind it, and WirePlumber's role policy (`policy.role-based.*`) may already
/// duck or cork it. Pure: read from a snapshot only.
import AudioSession

extension PulseDeviceSnapshot {
  /// Whether this sink passes its audio on to another sink through a loopback stream (the
  /// stream shares its `node.link-group`): a route inside the server, not a device.
  package var isLoopbackSink: Bool {
    direction == .output && properties["node.link-group"] != nil
      && (properties["node.virtual"] == "true"
        || properties["policy.role-based.target"] == "true")
  }

  /// WirePlumber's role policy for the streams on this sink, when it is one of its role sinks.
  package var rolePolicy: PulseRolePolicy? {
    guard properties["policy.role-based.target"] == "true",
      let priority = properties["policy.role-based.priority"].flatMap({ Int($0) })
    else { return nil }
    return PulseRolePolicy(
      priority: priority,
      samePriority: PulseRolePolicy.Action(properties["policy.role-based.action.same-priority"]),
      lowerPriority: PulseRolePolicy.Action(properties["policy.role-based.action.lower-priority"]))
  }
}

/// What WirePlumber 0.5's role-based policy does to the streams of one role sink while a stream
/// plays on another (docs/pulseaudio.md §2.2): the sink of the highest priority that has a
/// playing stream applies its `lower-priority` action to the sinks of lower priority, and its
/// `same-priority` action to the other sinks of its priority.
package struct PulseRolePolicy: Sendable, Hashable {
  /// One sink's action on another's streams: `mix` leaves them, `duck` lowers them, `cork`
  /// stops them (WirePlumber unlinks them from the device).
  package enum Action: Int, Sendable, Hashable, Comparable {
    case mix, duck, cork

    init(_ text: String?) {
      switch text {
      case "duck": self = .duck
      case "cork": self = .cork
      default: self = .mix
      }
    }

    package static func < (lhs: Action, rhs: Action) -> Bool { lhs.rawValue < rhs.rawValue }
  }

  package var priority: Int
  package var samePriority: Action
  package var lowerPriority: Action
}

extension PulseServerSnapshot {
  /// The sink a playback stream on the sink `index` is heard on: that sink, or, for a loopback
  /// sink, the sink its loopback stream plays on (followed through at most four loopbacks).
  package func audibleSink(_ index: UInt32) -> PulseDeviceSnapshot? {
    var current = index
    for _ in 0..<5 {
      guard let sink = devices.first(where: { $0.direction == .output && $0.index == current })
      else { return nil }
      guard sink.isLoopbackSink, let group = sink.properties["node.link-group"] else {
        return sink
      }
      guard
        let loop = sinkInputs.first(where: {
          $0.properties["node.link-group"] == group && $0.sinkIndex != current
        })
      else { return nil }
      current = loop.sinkIndex
    }
    return nil
  }

  /// PulseAudio's role names as pipewire-pulse translates them into PipeWire's (§2.2); other
  /// roles pass as they are.
  static let pipeWireRoles = [
    "music": "Music", "video": "Movie", "game": "Game", "phone": "Communication",
    "event": "Notification", "a11y": "Accessibility", "production": "Production",
    "test": "Test",
  ]

  /// The role sink WirePlumber links a stream of `role` to: the one whose
  /// `device.intended_roles` lists it, else the one that lists `Multimedia` (the example's
  /// default role). A stream shows on no sink for a moment after it appears on pipewire-pulse
  /// 1.4, before WirePlumber links it (§2.2).
  package func roleSink(for role: String?) -> PulseDeviceSnapshot? {
    let name = role.map { Self.pipeWireRoles[$0] ?? $0 } ?? "Multimedia"
    func lists(_ sink: PulseDeviceSnapshot, _ role: String) -> Bool {
      sink.properties["device.intended_roles"]?.contains("\"\(role)\"") == true
    }
    let sinks = devices.filter { $0.direction == .output && $0.rolePolicy != nil }
    return sinks.first { lists($0, name) } ?? sinks.first { lists($0, "Multimedia") }
  }

  /// The sink a playback stream is on, or the role sink WirePlumber is about to link it to: a
  /// new stream shows on no sink, or on the default sink, for a moment before WirePlumber links
  /// it to its role sink (§2.2), unless it asked for a device (`target.object`); while it shows
  /// on none, the sink it was last on (`lastSink`) when it was on one.
  func roleSinkIndex(of input: PulseSinkInput, lastSink: UInt32?) -> UInt32? {
    if let sink = devices.first(where: { $0.direction == .output && $0.index == input.sinkIndex }) {
      let pinned =
        sink.rolePolicy != nil || sink.isLoopbackSink || input.clientIndex == nil
        || input.properties["target.object"] != nil || input.properties["node.target"] != nil
      return pinned ? input.sinkIndex : roleSink(for: input.role)?.index ?? input.sinkIndex
    }
    return lastSink ?? roleSink(for: input.role)?.index
  }

  /// What WirePlumber's role policy does now to the playback stream `stream` (docs/pulseaudio.md
  /// §2.2): the action of the other role sink of the highest priority with a playing
  /// (uncorked) stream, when that priority is not below the stream's own role sink's; `mix`
  /// when the stream is on no role sink, or nothing of that priority plays. A stream
  /// WirePlumber corked shows on no sink: `lastSink` names the sink it was last seen on.
  package func rolePolicyAction(on stream: UInt32, lastSink: UInt32? = nil)
    -> PulseRolePolicy.Action
  {
    guard let input = sinkInputs.first(where: { $0.index == stream }),
      let sinkIndex = roleSinkIndex(of: input, lastSink: lastSink),
      let own = devices.first(where: { $0.direction == .output && $0.index == sinkIndex })?
        .rolePolicy
    else { return .mix }
    let active = Set(
      sinkInputs.filter { $0.index != stream && $0.clientIndex != nil && !$0.isCorked }
        .compactMap { roleSinkIndex(of: $0, lastSink: nil) })
    let others = devices.compactMap { sink -> PulseRolePolicy? in
      guard sink.direction == .output, sink.index != sinkIndex,
        active.contains(sink.index)
      else { return nil }
      return sink.rolePolicy
    }
    guard let top = others.map(\.priority).max(), top >= own.priority else { return .mix }
    return others.filter { $0.priority == top }
      .map { top > own.priority ? $0.lowerPriority : $0.samePriority }.max() ?? .mix
  }
}
