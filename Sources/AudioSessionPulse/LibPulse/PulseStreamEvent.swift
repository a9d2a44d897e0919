/// Something a ``PulsePlaybackStream`` reports on its ``PulsePlaybackStream/events`` stream.
import AudioSession

package enum PulseStreamEvent: Sendable, Hashable, CustomStringConvertible {
  /// The stream changed state.
  case state(PulseStreamState)
  /// The server asks the owner to pause (module-role-cork: a trigger-role stream started). The
  /// server has already muted the stream; the owner is expected to cork it.
  /// (`PA_STREAM_EVENT_REQUEST_CORK`.)
  case requestCork
  /// The server allows the owner to resume. Sent only to a stream that corked after
  /// ``requestCork``. (`PA_STREAM_EVENT_REQUEST_UNCORK`.)
  case requestUncork
  /// Another named stream event (`format-lost`), with its string properties.
  case other(name: String, properties: [String: String])
  /// The server moved the stream to another sink (e.g. the default sink changed).
  case moved(sinkName: String?)
  /// The sink the stream plays to was suspended or resumed.
  case suspended(Bool)

  package var description: String {
    switch self {
    case .state(let state): "state \(state)"
    case .requestCork: "request-cork"
    case .requestUncork: "request-uncork"
    case .other(let name, _): "event \(name)"
    case .moved(let sink): "moved to \(sink ?? "?")"
    case .suspended(let suspended): suspended ? "suspended" : "resumed"
    }
  }
}

/// The state of a stream. The corresponding C type is `pa_stream_state_t`.
package enum PulseStreamState: Sendable, Hashable, CustomStringConvertible {
  case unconnected
  case creating
  case ready
  /// The stream failed, e.g. because its context's connection was lost.
  case failed(PulseError)
  /// The stream was disconnected by its owner.
  case terminated

  package var description: String {
    switch self {
    case .unconnected: "unconnected"
    case .creating: "creating"
    case .ready: "ready"
    case .failed(let error): "failed (\(error))"
    case .terminated: "terminated"
    }
  }
}
