import AudioSession
import CPulse

/// The level of one playback stream (a sink input), as a mixer's stream meter reads it: a
/// record stream on the monitor of the stream's sink, limited to that stream
/// (`pa_stream_set_monitor_stream`), with the server's peak detection (`PA_STREAM_PEAK_DETECT`:
/// one float sample per period, the loudest of the period). At ``rate`` samples a second it
/// costs the server next to nothing. The handler receives each peak (0 silent, 1 full scale)
/// on the loop thread and must return quickly. The corresponding C functions are
/// `pa_stream_set_monitor_stream` and `pa_stream_connect_record`.
package final class PulseLevelMeter: PulseStream, @unchecked Sendable {
  /// Peaks a second.
  package static let rate: UInt32 = 25

  /// 32-bit floats in the machine's byte order.
  #if _endian(little)
    static let nativeFloat = PA_SAMPLE_FLOAT32LE
  #else
    static let nativeFloat = PA_SAMPLE_FLOAT32BE
  #endif

  // Set before connecting; read on the loop thread.
  private let onPeak: @Sendable (Float) -> Void

  /// Creates an unconnected meter of the sink input `sinkInput`. Its own stream carries
  /// `media.role` `test` and `audiosession.owner`, so that no policy takes it for a program's.
  package init(
    context: PulseContext, sinkInput: UInt32, onPeak: @escaping @Sendable (Float) -> Void
  ) throws(PulseError) {
    self.onPeak = onPeak
    try super.init(
      context: context, name: "level of stream \(sinkInput)",
      properties: [
        "media.role": "test", PulseSimulatedDevice.Key.owner: "level-meter",
        "application.name": "AudioSession level meter",
      ],
      sampleSpec: pa_sample_spec(format: Self.nativeFloat, rate: Self.rate, channels: 1))
    let status = context.mainloop.withLock { pa_stream_set_monitor_stream(stream, sinkInput) }
    if status < 0 { throw PulseError(rawValue: status) }
  }

  override func installDataCallback(_ userdata: UnsafeMutableRawPointer) {
    pa_stream_set_read_callback(stream, Self.readable, userdata)
  }

  override func removeDataCallback() {
    pa_stream_set_read_callback(stream, nil, nil)
  }

  /// Connects to the monitor source of the sink the stream plays on (`SINK.monitor`) and
  /// returns once the meter is ready.
  package func connect(toMonitorOf sink: String) async throws(PulseError) {
    try await connect {
      // One peak per fragment: the server sends each as it is measured.
      var attributes = pa_buffer_attr(
        maxlength: UInt32.max, tlength: UInt32.max, prebuf: UInt32.max, minreq: UInt32.max,
        fragsize: UInt32(MemoryLayout<Float>.size))
      let flags =
        PA_STREAM_PEAK_DETECT.rawValue | PA_STREAM_ADJUST_LATENCY.rawValue
        | PA_STREAM_DONT_INHIBIT_AUTO_SUSPEND.rawValue
      return pa_stream_connect_record(
        stream, sink + ".monitor", &attributes, pa_stream_flags_t(flags))
    }
  }

  /// Reads the peaks and hands the loudest of what arrived to the handler.
  private static let readable: pa_stream_request_cb_t = { stream, _, userdata in
    guard let userdata else { return }
    let meter = Unmanaged<PulseLevelMeter>.fromOpaque(userdata).takeUnretainedValue()
    var data: UnsafeRawPointer?
    var length = 0
    var loudest: Float = -1
    while pa_stream_peek(stream, &data, &length) == 0, length > 0 {
      if let data {
        let count = length / MemoryLayout<Float>.size
        let samples = data.bindMemory(to: Float.self, capacity: count)
        for index in 0..<count { loudest = max(loudest, abs(samples[index])) }
      }
      _ = pa_stream_drop(stream)
    }
    if loudest >= 0 { meter.onPeak(loudest) }
  }
}
