import AudioSession
import CPulse

/// A record stream that reads and discards what it captures: the input side of a session whose
/// category records (`record`, `playAndRecord`), tagged with `media.role` like its playback
/// stream. Its server index is a source output. The corresponding C function is
/// `pa_stream_connect_record`.
package final class PulseRecordStream: PulseStream, @unchecked Sendable {
  /// Creates an unconnected record stream named `name` with stream properties. The
  /// corresponding C function is `pa_stream_new_with_proplist`.
  package init(
    context: PulseContext, name: String, properties: [String: String] = [:]
  ) throws(PulseError) {
    try super.init(context: context, name: name, properties: properties)
  }

  override func installDataCallback(_ userdata: UnsafeMutableRawPointer) {
    pa_stream_set_read_callback(stream, Self.readable, userdata)
  }

  override func removeDataCallback() {
    pa_stream_set_read_callback(stream, nil, nil)
  }

  /// Connects to `source` (nil: the server's default) and returns once the stream is ready. With
  /// `corked`, it starts paused. With `pinned`, it may not be moved (`PA_STREAM_DONT_MOVE`): when
  /// its source goes, the server kills it. With `unmuted`, it starts unmuted whatever the server
  /// remembers for its role (`PA_STREAM_START_UNMUTED`). The corresponding C function is
  /// `pa_stream_connect_record`.
  package func connect(
    toSource source: String? = nil, corked: Bool = false, pinned: Bool = false,
    unmuted: Bool = false, latency: UInt64 = PulseStream.defaultLatency
  ) async throws(PulseError) {
    try await connect {
      var attributes = Self.bufferAttributes(latency: latency)
      var flags = PA_STREAM_ADJUST_LATENCY.rawValue
      if corked { flags |= PA_STREAM_START_CORKED.rawValue }
      if unmuted { flags |= PA_STREAM_START_UNMUTED.rawValue }
      if pinned { flags |= PA_STREAM_DONT_MOVE.rawValue }
      return pa_stream_connect_record(stream, source, &attributes, pa_stream_flags_t(flags))
    }
  }

  /// Drops what was captured. `stream.h` (`pa_stream_peek`): "If there is data at the current
  /// read index, data will point to the actual data and nbytes will contain the size … If there
  /// is no data at the current read index, it means that either the buffer is empty or it
  /// contains a hole … In both cases, data will be NULL" — and "pa_stream_drop() must not be
  /// called if the buffer is empty, but should be called if there is a hole".
  private static let readable: pa_stream_request_cb_t = { stream, _, _ in
    var data: UnsafeRawPointer?
    var length = 0
    while pa_stream_peek(stream, &data, &length) == 0, length > 0 {
      _ = pa_stream_drop(stream)
    }
  }
}
