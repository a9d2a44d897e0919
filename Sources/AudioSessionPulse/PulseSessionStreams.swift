/// A session's presence on the server while it plays: a playback stream (and a record stream
/// for a category that records), and what the backend last applied to them.
///
/// Confined to the ``PulseAudioBackend`` actor.
import AudioSessionCore

final class PulseSessionStreams {
  let session: String
  /// The `media.role` both streams carry.
  let role: String
  let playback: PulsePlaybackStream?
  let record: PulseRecordStream?
  /// The sink and source the streams play to and record from.
  var sink: String?
  var source: String?
  var corked = false
  var muted = false
  /// The volumes saved when ducking began, restored exactly when it ends.
  var savedVolumes: [PulseVolume]?
  /// The sequence of the last snapshot settled before the backend's last open or move of the
  /// streams: only a later one shows where they are (``PulseServerMonitor/requestSettle()``).
  var requestsSettled = Int.max
  /// The number of the last cork request handled (``PulseEventCounter``).
  var lastCorkRequest = 0

  init(
    session: String, role: String, playback: PulsePlaybackStream?, record: PulseRecordStream?,
    sink: String?, source: String?
  ) {
    self.session = session
    self.role = role
    self.playback = playback
    self.record = record
    self.sink = sink
    self.source = source
  }

  var ducked: Bool { savedVolumes != nil }

  /// Both streams, for what applies to either.
  var streams: [PulseStream] { [playback, record].compactMap { $0 } }

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
