/// A session's presence on the server while it plays: a playback stream (and a record stream
/// for a category that records). What they should be, and what the backend last asked of them,
/// is ``OwnStreamsModel``'s.
///
/// Confined to the ``PulseAudioBackend`` actor.
import AudioSession

final class PulseSessionStreams {
  let session: String
  let playback: PulsePlaybackStream?
  let record: PulseRecordStream?
  /// The sequence of the last snapshot settled before the backend's last open or move of the
  /// streams: only a later one shows where they are (``PulseServerMonitor/requestSettle()``).
  var requestsSettled = Int.max
  /// The number of the last cork request handled (``PulseEventCounter``).
  var lastCorkRequest = 0

  init(session: String, playback: PulsePlaybackStream?, record: PulseRecordStream?) {
    self.session = session
    self.playback = playback
    self.record = record
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
