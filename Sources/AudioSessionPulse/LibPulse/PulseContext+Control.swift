import AudioSession
import CPulse

/// Requests that change the server: modules, and other clients' playback streams.
///
/// A client cannot cork another client's stream (`introspect.h` offers only volume, mute, move
/// and kill for sink inputs); these are the levers the backend has on foreign streams.
extension PulseContext {
  /// Loads a module (`module-null-sink`, `module-role-cork`) with an argument string (see
  /// ``PulseModuleArguments``) and returns its index, which ``unloadModule(_:)`` takes.
  ///
  /// Throws ``PulseError/moduleInitFailed`` for an unknown module or bad arguments. Module names
  /// must not contain `/` (the server refuses paths). The corresponding C function is
  /// `pa_context_load_module`.
  package func loadModule(_ name: String, arguments: String = "") async throws(PulseError) -> UInt32
  {
    let indices: [UInt32] = try await list { userdata in
      pa_context_load_module(context, name, arguments, Self.moduleLoaded, userdata)
    }
    guard let index = indices.first else { throw .noData }
    return index
  }

  /// Unloads a module; devices and streams it created disappear (with `remove` events). The
  /// corresponding C function is `pa_context_unload_module`.
  package func unloadModule(_ index: UInt32) async throws(PulseError) {
    try await succeed { userdata in
      pa_context_unload_module(context, index, Self.succeeded, userdata)
    }
  }

  /// Mutes or unmutes a playback stream (any client's). The corresponding C function is
  /// `pa_context_set_sink_input_mute`.
  package func setSinkInputMute(_ index: UInt32, muted: Bool) async throws(PulseError) {
    try await succeed { userdata in
      pa_context_set_sink_input_mute(context, index, muted ? 1 : 0, Self.succeeded, userdata)
    }
  }

  /// Sets every channel of a playback stream (any client's) to `volume`; `channels` is the
  /// stream's channel count (``PulseSinkInput/channels``). The corresponding C function is
  /// `pa_context_set_sink_input_volume`.
  package func setSinkInputVolume(
    _ index: UInt32, to volume: PulseVolume, channels: Int
  ) async throws(PulseError) {
    guard (1...Int(PA_CHANNELS_MAX)).contains(channels) else { throw .invalidArgument }
    var levels = pa_cvolume()
    pa_cvolume_set(&levels, UInt32(channels), volume.rawValue)
    let requested = levels
    try await succeed { userdata in
      withUnsafePointer(to: requested) {
        pa_context_set_sink_input_volume(context, index, $0, Self.succeeded, userdata)
      }
    }
  }

  /// Sets each channel of a playback stream (any client's) to its own volume, in channel order,
  /// e.g. to restore exactly the volumes saved in ``PulseSinkInput/channelVolumes``. The
  /// corresponding C function is `pa_context_set_sink_input_volume`.
  package func setSinkInputVolume(
    _ index: UInt32, to volumes: [PulseVolume]
  ) async throws(PulseError) {
    guard (1...Int(PA_CHANNELS_MAX)).contains(volumes.count) else { throw .invalidArgument }
    let requested = PulseCopy.cvolume(volumes)
    try await succeed { userdata in
      withUnsafePointer(to: requested) {
        pa_context_set_sink_input_volume(context, index, $0, Self.succeeded, userdata)
      }
    }
  }

  /// Moves a playback stream (any client's) to the sink named `sink`. The corresponding C
  /// function is `pa_context_move_sink_input_by_name`.
  package func moveSinkInput(_ index: UInt32, toSink sink: String) async throws(PulseError) {
    try await succeed { userdata in
      pa_context_move_sink_input_by_name(context, index, sink, Self.succeeded, userdata)
    }
  }

  /// Moves a recording stream (any client's) to the source named `source`. The corresponding C
  /// function is `pa_context_move_source_output_by_name`.
  package func moveSourceOutput(_ index: UInt32, toSource source: String) async throws(PulseError) {
    try await succeed { userdata in
      pa_context_move_source_output_by_name(context, index, source, Self.succeeded, userdata)
    }
  }

  /// Mutes or unmutes a source (a microphone), as a hardware mute switch would. The
  /// corresponding C function is `pa_context_set_source_mute_by_name`.
  package func setSourceMute(_ source: String, muted: Bool) async throws(PulseError) {
    try await succeed { userdata in
      pa_context_set_source_mute_by_name(context, source, muted ? 1 : 0, Self.succeeded, userdata)
    }
  }

  /// Makes the sink named `sink` the server's default (a user's choice: it is remembered, and
  /// streams without a device of their own move to it). The corresponding C function is
  /// `pa_context_set_default_sink`.
  package func setDefaultSink(_ sink: String) async throws(PulseError) {
    try await succeed { userdata in
      pa_context_set_default_sink(context, sink, Self.succeeded, userdata)
    }
  }

  /// Sets each channel of the sink named `sink` to its own volume, in channel order (a user's
  /// volume keys, a mixer's slider). The corresponding C function is
  /// `pa_context_set_sink_volume_by_name`.
  package func setSinkVolume(_ sink: String, to volumes: [PulseVolume]) async throws(PulseError) {
    guard (1...Int(PA_CHANNELS_MAX)).contains(volumes.count) else { throw .invalidArgument }
    let requested = PulseCopy.cvolume(volumes)
    try await succeed { userdata in
      withUnsafePointer(to: requested) {
        pa_context_set_sink_volume_by_name(context, sink, $0, Self.succeeded, userdata)
      }
    }
  }

  /// Makes the source named `source` the server's default, as ``setDefaultSink(_:)`` does for
  /// sinks. The corresponding C function is `pa_context_set_default_source`.
  package func setDefaultSource(_ source: String) async throws(PulseError) {
    try await succeed { userdata in
      pa_context_set_default_source(context, source, Self.succeeded, userdata)
    }
  }

  // MARK: Requests that do not wait

  /// Like ``setSinkInputMute(_:muted:)``, but returns at once; `completion` receives the
  /// outcome on the loop thread (nil: done). Requests on one connection are carried out in the
  /// order they were sent.
  package func setSinkInputMute(
    _ index: UInt32, muted: Bool, completion: @escaping @Sendable (PulseError?) -> Void
  ) {
    send(completion) { userdata in
      pa_context_set_sink_input_mute(context, index, muted ? 1 : 0, Self.succeeded, userdata)
    }
  }

  /// Like ``setSinkInputVolume(_:to:)``, but returns at once (see
  /// ``setSinkInputMute(_:muted:completion:)``).
  package func setSinkInputVolume(
    _ index: UInt32, to volumes: [PulseVolume],
    completion: @escaping @Sendable (PulseError?) -> Void
  ) {
    guard (1...Int(PA_CHANNELS_MAX)).contains(volumes.count) else {
      completion(.invalidArgument)
      return
    }
    let requested = PulseCopy.cvolume(volumes)
    send(completion) { userdata in
      withUnsafePointer(to: requested) {
        pa_context_set_sink_input_volume(context, index, $0, Self.succeeded, userdata)
      }
    }
  }

  /// Mutes or unmutes a recording stream (any client's), returning at once (see
  /// ``setSinkInputMute(_:muted:completion:)``). The corresponding C function is
  /// `pa_context_set_source_output_mute`.
  package func setSourceOutputMute(
    _ index: UInt32, muted: Bool, completion: @escaping @Sendable (PulseError?) -> Void
  ) {
    send(completion) { userdata in
      pa_context_set_source_output_mute(context, index, muted ? 1 : 0, Self.succeeded, userdata)
    }
  }

  /// Like ``moveSinkInput(_:toSink:)``, but returns at once (see
  /// ``setSinkInputMute(_:muted:completion:)``).
  package func moveSinkInput(
    _ index: UInt32, toSink sink: String, completion: @escaping @Sendable (PulseError?) -> Void
  ) {
    send(completion) { userdata in
      pa_context_move_sink_input_by_name(context, index, sink, Self.succeeded, userdata)
    }
  }

  /// Like ``moveSourceOutput(_:toSource:)``, but returns at once (see
  /// ``setSinkInputMute(_:muted:completion:)``).
  package func moveSourceOutput(
    _ index: UInt32, toSource source: String,
    completion: @escaping @Sendable (PulseError?) -> Void
  ) {
    send(completion) { userdata in
      pa_context_move_source_output_by_name(context, index, source, Self.succeeded, userdata)
    }
  }

  /// Sends a request answered by a success flag, without waiting for the answer.
  private func send(
    _ completion: @escaping @Sendable (PulseError?) -> Void,
    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
  ) {
    request({ (reply: Result<[Bool], PulseError>) in completion(reply.failure) }, start)
  }

  /// The reply of `pa_context_load_module`: the new module's index, or `PA_INVALID_INDEX` when
  /// loading failed (the reason is in `pa_context_errno`).
  private static let moduleLoaded: pa_context_index_cb_t = { context, index, userdata in
    let request = PulseRequest<UInt32>.from(userdata)
    if index == cpulse_invalid_index {
      request.finish(.failure(lastError(of: context)))
    } else {
      request.finish(.success([index]))
    }
  }
}
