/// Something a ``PulseContext`` reports on its ``PulseContext/events`` stream.
import AudioSession

package enum PulseContextEvent: Sendable, Hashable, CustomStringConvertible {
  /// The connection changed state.
  case state(PulseContextState)
  /// The server announced that an object appeared, changed or disappeared.
  case subscription(PulseSubscriptionEvent)

  package var description: String {
    switch self {
    case .state(let state): "state \(state)"
    case .subscription(let event): event.description
    }
  }
}

/// The state of a connection to a server. The corresponding C type is `pa_context_state_t`.
package enum PulseContextState: Sendable, Hashable, CustomStringConvertible {
  case unconnected
  case connecting
  case authorizing
  case settingName
  case ready
  /// The connection failed or was lost (the server died: `connectionTerminated`). A context in
  /// this state is finished: make a new ``PulseContext`` to reconnect.
  case failed(PulseError)
  /// The client disconnected.
  case terminated

  package var description: String {
    switch self {
    case .unconnected: "unconnected"
    case .connecting: "connecting"
    case .authorizing: "authorizing"
    case .settingName: "settingName"
    case .ready: "ready"
    case .failed(let error): "failed (\(error))"
    case .terminated: "terminated"
    }
  }
}

/// A kind of server object a subscription reports on. The corresponding C type is
/// `pa_subscription_mask_t` / the facility bits of `pa_subscription_event_type_t`.
package enum PulseFacility: String, Sendable, Hashable, CaseIterable {
  case sink
  case source
  case sinkInput = "sink-input"
  case sourceOutput = "source-output"
  case module
  case client
  case sampleCache = "sample-cache"
  /// The server itself (default sink and source); events carry no index.
  case server
  case card
}

/// What happened to an object. The corresponding C type is the type bits of
/// `pa_subscription_event_type_t`.
package enum PulseSubscriptionKind: String, Sendable, Hashable, CaseIterable {
  case new
  case change
  case remove
}

/// One subscription event: only facility, kind and index; fetch details by index (a removed
/// object can no longer be fetched). A `change` may arrive before the `new` of the same index.
package struct PulseSubscriptionEvent: Sendable, Hashable, CustomStringConvertible {
  package var kind: PulseSubscriptionKind
  package var facility: PulseFacility
  /// The object's index; nil for server events (libpulse sends `PA_INVALID_INDEX`).
  package var index: UInt32?

  package init(kind: PulseSubscriptionKind, facility: PulseFacility, index: UInt32?) {
    self.kind = kind
    self.facility = facility
    self.index = index
  }

  /// As `pactl subscribe` prints it: `new sink 3`, `change server`.
  package var description: String {
    guard let index else { return "\(kind.rawValue) \(facility.rawValue)" }
    return "\(kind.rawValue) \(facility.rawValue) \(index)"
  }
}
