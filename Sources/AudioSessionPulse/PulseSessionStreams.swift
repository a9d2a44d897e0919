/// A session's presence on the server while it plays: a playback stream (and a record stream
/// for a category that records), and what the backend last applied to them.
///
/// Confined to the ``PulseAudioBackend`` actor.
import AudioSession

final class PulseSessionStreams {
  let session: String
  /// The `media.role` both streams carry.
  let role: String
  let playback: PulsePlaybackStream?
  let record: PulseRecordStream?
  /// Whether the streams may be moved (else they were opened pinned: `PA_STREAM_DONT_MOVE`).
  let movable: Bool
  /// The sink and source the streams play to and record from.
  var sink: String?
  var source: String?
  var corked = false
  /// The sequence of the last snapshot settled before the backend's last open or move of the
  /// streams: only a later one shows where they are (``PulseServerMonitor/requestSettle()``).
  var requestsSettled = Int.max
  /// The number of the last cork request handled (``PulseEventCounter``).
  var lastCorkRequest = 0

  init(
    session: String, role: String, playback: PulsePlaybackStream?, record: PulseRecordStream?,
    sink: String?, source: String?, movable: Bool
  ) {
    self.movable = movable
    self.session = session
    self.role = role
    self.playback = playback
    self.record = record
    self.sink = sink
    self.source = source
  }

  /// Both streams, for what applies to either.
  var streams: [PulseStream] { [playback, record].compactMap { $0 } }

  /// Whether every stream is still on the server (a killed stream's state is failed).
  var isAlive: Bool {
    streams.allSatisfy {
      switch $0.state {
      case .failed, .terminated: false
      default: true
      }
    }
  }

  /// Whether the route's sink or source (`target` finds them) is another than the streams'.
  func isElsewhere(
    than route: RouteDescription, target: (PortDescription?, PortDirection) -> String?
  ) -> Bool {
    if playback != nil, let wanted = target(route.outputs.first, .output), wanted != sink {
      return true
    }
    if record != nil, let wanted = target(route.inputs.first, .input), wanted != source {
      return true
    }
    return false
  }

  /// Disconnects both streams (their sink input and source output disappear).
  func close() {
    for stream in streams { stream.disconnect() }
  }
}

/// Numbers events on the thread that delivers them (a libpulse loop thread), so that their
/// handlers, which run later in tasks of their own, can tell an old event from a new one.
final class PulseEventCounter: @unchecked Sendable {
  /// Touched only on the one thread that delivers the events.
  private var last = 0

  func next() -> Int {
    last += 1
    return last
  }
}
