import AudioSession
import CPulse

/// A playback stream that plays silence: a session's presence on the server, tagged with
/// `media.role` so the server's role policies (module-role-cork, -ducking) see it.
///
/// Server events for the stream (request-cork, request-uncork, moves) arrive on ``events``. The
/// corresponding C function is `pa_stream_connect_playback`.
package final class PulsePlaybackStream: PulseStream, @unchecked Sendable {
  // Guarded by the loop lock.
  private var silence: [UInt8] = []

  /// Creates an unconnected stream named `name` with stream properties such as
  /// `["media.role": "phone"]`. The corresponding C function is `pa_stream_new_with_proplist`.
  package init(
    context: PulseContext, name: String, properties: [String: String] = [:]
  ) throws(PulseError) {
    try super.init(context: context, name: name, properties: properties)
  }

  /// Like ``init(context:name:properties:)``, with `channels` channels (1 to 32) of the usual
  /// format and rate.
  init(
    context: PulseContext, name: String, properties: [String: String], channels: Int
  ) throws(PulseError) {
    guard (1...Int(PA_CHANNELS_MAX)).contains(channels) else { throw .invalidArgument }
    var spec = PulseStream.sampleSpec
    spec.channels = UInt8(channels)
    try super.init(context: context, name: name, properties: properties, sampleSpec: spec)
  }

  override func installDataCallback(_ userdata: UnsafeMutableRawPointer) {
    pa_stream_set_write_callback(stream, Self.writeRequested, userdata)
  }

  override func removeDataCallback() {
    pa_stream_set_write_callback(stream, nil, nil)
  }

  /// Connects to `sink` (nil: the server's default, which the stream then follows) and returns
  /// once the stream is ready. With `corked`, it starts paused. With `pinned`, it may not be
  /// moved (`PA_STREAM_DONT_MOVE`): when its sink goes, the server kills it. With `unmuted`, it
  /// starts unmuted whatever the server remembers for its role (`PA_STREAM_START_UNMUTED`:
  /// PulseAudio's module-stream-restore then leaves its mute alone). The corresponding C
  /// function is `pa_stream_connect_playback`.
  package func connect(
    toSink sink: String? = nil, corked: Bool = false, pinned: Bool = false,
    unmuted: Bool = false, latency: UInt64 = PulseStream.defaultLatency
  ) async throws(PulseError) {
    try await connect {
      var attributes = Self.bufferAttributes(latency: latency)
      var flags = PA_STREAM_ADJUST_LATENCY.rawValue
      if corked { flags |= PA_STREAM_START_CORKED.rawValue }
      if unmuted { flags |= PA_STREAM_START_UNMUTED.rawValue }
      if pinned { flags |= PA_STREAM_DONT_MOVE.rawValue }
      return pa_stream_connect_playback(
        stream, sink, &attributes, pa_stream_flags_t(flags), nil, nil)
    }
  }

  /// Writes `nbytes` of silence. `pa_stream_write` with a NULL `free_cb`: "If NULL, the data is
  /// copied into an internal buffer", so one zeroed buffer is reused. A failed write means the
  /// stream is dying; its state callback reports that.
  private static let writeRequested: pa_stream_request_cb_t = { stream, nbytes, userdata in
    guard let owner = instance(userdata) as? PulsePlaybackStream else {
      preconditionFailure("write callback on a stream that is not a playback stream")
    }
    if owner.silence.count < nbytes {
      owner.silence = [UInt8](repeating: 0, count: nbytes)
    }
    owner.silence.withUnsafeBytes { buffer in
      _ = pa_stream_write(stream, buffer.baseAddress, nbytes, nil, 0, PA_SEEK_RELATIVE)
    }
  }
}
