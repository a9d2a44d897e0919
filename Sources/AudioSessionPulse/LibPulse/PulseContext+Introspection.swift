import AudioSession
import CPulse

/// Introspection: each method sends one request and copies the reply into Swift values.
///
/// The server answers requests in order, so a request sent after the last event of a burst sees
/// the burst's final state. By-index lookups return nil for an object that no longer exists
/// (the server answers `PA_ERR_NOENTITY`).
extension PulseContext {
  /// The server's name, version and default devices. The corresponding C function is
  /// `pa_context_get_server_info`.
  package func serverInfo() async throws(PulseError) -> PulseServerInfo {
    let replies: [PulseServerInfo] = try await list { userdata in
      pa_context_get_server_info(context, Self.serverInfoReceived, userdata)
    }
    guard let info = replies.first else { throw .noData }
    return info
  }

  /// Every sink, with card names filled in. The corresponding C function is
  /// `pa_context_get_sink_info_list`.
  package func sinks() async throws(PulseError) -> [PulseDeviceSnapshot] {
    let sinks: [PulseDeviceSnapshot] = try await list { userdata in
      pa_context_get_sink_info_list(context, Self.sinkReceived, userdata)
    }
    return try await withCardNames(sinks)
  }

  /// Every source (monitors included), with card names filled in. The corresponding C function
  /// is `pa_context_get_source_info_list`.
  package func sources() async throws(PulseError) -> [PulseDeviceSnapshot] {
    let sources: [PulseDeviceSnapshot] = try await list { userdata in
      pa_context_get_source_info_list(context, Self.sourceReceived, userdata)
    }
    return try await withCardNames(sources)
  }

  /// Sinks, then sources.
  package func devices() async throws(PulseError) -> [PulseDeviceSnapshot] {
    try await sinks() + sources()
  }

  /// The sink with this index, or nil if there is none. The corresponding C function is
  /// `pa_context_get_sink_info_by_index`.
  package func sink(at index: UInt32) async throws(PulseError) -> PulseDeviceSnapshot? {
    let found: [PulseDeviceSnapshot] = try await lookup { userdata in
      pa_context_get_sink_info_by_index(context, index, Self.sinkReceived, userdata)
    }
    return try await withCardNames(found).first
  }

  /// The source with this index, or nil if there is none. The corresponding C function is
  /// `pa_context_get_source_info_by_index`.
  package func source(at index: UInt32) async throws(PulseError) -> PulseDeviceSnapshot? {
    let found: [PulseDeviceSnapshot] = try await lookup { userdata in
      pa_context_get_source_info_by_index(context, index, Self.sourceReceived, userdata)
    }
    return try await withCardNames(found).first
  }

  /// Every playback stream of every client. The corresponding C function is
  /// `pa_context_get_sink_input_info_list`.
  package func sinkInputs() async throws(PulseError) -> [PulseSinkInput] {
    try await list { userdata in
      pa_context_get_sink_input_info_list(context, Self.sinkInputReceived, userdata)
    }
  }

  /// The playback stream with this index, or nil if there is none. The corresponding C function
  /// is `pa_context_get_sink_input_info`.
  package func sinkInput(at index: UInt32) async throws(PulseError) -> PulseSinkInput? {
    let found: [PulseSinkInput] = try await lookup { userdata in
      pa_context_get_sink_input_info(context, index, Self.sinkInputReceived, userdata)
    }
    return found.first
  }

  /// One client, or nil if there is none at that index (it has left). The corresponding C
  /// function is `pa_context_get_client_info`.
  package func client(at index: UInt32) async throws(PulseError) -> PulseClientInfo? {
    let found: [PulseClientInfo] = try await lookup { userdata in
      pa_context_get_client_info(context, index, Self.clientReceived, userdata)
    }
    return found.first
  }

  /// Every recording stream of every client. The corresponding C function is
  /// `pa_context_get_source_output_info_list`.
  package func sourceOutputs() async throws(PulseError) -> [PulseSourceOutput] {
    try await list { userdata in
      pa_context_get_source_output_info_list(context, Self.sourceOutputReceived, userdata)
    }
  }

  /// Every card. The corresponding C function is `pa_context_get_card_info_list`.
  package func cards() async throws(PulseError) -> [PulseCard] {
    try await list { userdata in
      pa_context_get_card_info_list(context, Self.cardReceived, userdata)
    }
  }

  /// The card with this index, or nil if there is none. The corresponding C function is
  /// `pa_context_get_card_info_by_index`.
  package func card(at index: UInt32) async throws(PulseError) -> PulseCard? {
    let found: [PulseCard] = try await lookup { userdata in
      pa_context_get_card_info_by_index(context, index, Self.cardReceived, userdata)
    }
    return found.first
  }

  // MARK: Requests answered on the loop thread

  /// Sends a request at once and hands the reply to `completion` on the loop thread: for code
  /// that runs there (``PulseServerMonitor``), so a follow-up request leaves in the same loop
  /// iteration as the event that caused it. A by-index request for a missing object fails with
  /// ``PulseError/noSuchEntity``.
  func request<Element: Sendable>(
    _ completion: @escaping @Sendable (Result<[Element], PulseError>) -> Void,
    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
  ) {
    PulseRequest<Element>.start(
      on: mainloop, context: context, completion: completion, start)
  }

  // MARK: Helpers

  /// A by-index request: "no such entity" means the object is gone, not a failure.
  private func lookup<Element: Sendable>(
    _ start: (UnsafeMutableRawPointer) -> OpaquePointer?
  ) async throws(PulseError) -> [Element] {
    do {
      return try await list(start)
    } catch .noSuchEntity {
      return []
    }
  }

  /// Fills in ``PulseDeviceSnapshot/cardName`` (sink and source infos carry only the index).
  private func withCardNames(
    _ devices: [PulseDeviceSnapshot]
  ) async throws(PulseError) -> [PulseDeviceSnapshot] {
    let cardIndices = Set(devices.compactMap(\.cardIndex))
    guard !cardIndices.isEmpty else { return devices }
    var names: [UInt32: String] = [:]
    if cardIndices.count == 1, let only = cardIndices.first {
      names[only] = try await card(at: only)?.name
    } else {
      for card in try await cards() { names[card.index] = card.name }
    }
    return devices.map { device in
      var device = device
      device.cardName = device.cardIndex.flatMap { names[$0] }
      return device
    }
  }

  // MARK: Callbacks (nonisolated: they run on the loop thread)

  static let serverInfoReceived: pa_server_info_cb_t = { context, info, userdata in
    let request = PulseRequest<PulseServerInfo>.from(userdata)
    guard let info else {
      request.finish(.failure(lastError(of: context)))
      return
    }
    request.finish(.success([PulseServerInfo(info.pointee)]))
  }

  static let sinkReceived: pa_sink_info_cb_t = { context, info, eol, userdata in
    PulseRequest<PulseDeviceSnapshot>.receive(context: context, eol: eol, userdata: userdata) {
      info.map { PulseDeviceSnapshot($0.pointee) }
    }
  }

  static let sourceReceived: pa_source_info_cb_t = { context, info, eol, userdata in
    PulseRequest<PulseDeviceSnapshot>.receive(context: context, eol: eol, userdata: userdata) {
      info.map { PulseDeviceSnapshot($0.pointee) }
    }
  }

  static let sinkInputReceived: pa_sink_input_info_cb_t = { context, info, eol, userdata in
    PulseRequest<PulseSinkInput>.receive(context: context, eol: eol, userdata: userdata) {
      info.map { PulseSinkInput($0.pointee) }
    }
  }

  static let sourceOutputReceived: pa_source_output_info_cb_t = {
    context, info, eol, userdata in
    PulseRequest<PulseSourceOutput>.receive(context: context, eol: eol, userdata: userdata) {
      info.map { PulseSourceOutput($0.pointee) }
    }
  }

  static let clientReceived: pa_client_info_cb_t = { context, info, eol, userdata in
    PulseRequest<PulseClientInfo>.receive(context: context, eol: eol, userdata: userdata) {
      info.map { PulseClientInfo($0.pointee) }
    }
  }

  static let cardReceived: pa_card_info_cb_t = { context, info, eol, userdata in
    PulseRequest<PulseCard>.receive(context: context, eol: eol, userdata: userdata) {
      info.map { PulseCard($0.pointee) }
    }
  }
}
