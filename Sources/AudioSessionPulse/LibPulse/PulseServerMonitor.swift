import AudioSession
import CPulse

/// Keeps a live copy of one server's sinks, sources, cards and playback streams, and says when a
/// burst of changes has settled: every event of the burst was seen and every follow-up request
/// was answered.
///
/// All bookkeeping runs on the context's loop thread, inside its callbacks: an event's
/// follow-up request (`get_sink_info` for `new sink 3`) leaves in the same loop iteration, with
/// no hop to another thread. The server answers one connection's requests in order and sends
/// all the events of one operation before it reads the next request, so the replies to requests
/// sent after a burst's first event arrive after the burst's last event (docs/pulseaudio.md §1.3
/// c). A count of unanswered requests therefore reaches zero exactly when the burst is over;
/// then ``onSettled`` receives a ``PulseServerSnapshot``. A `remove` needs no request, so it
/// sends a cheap one (`get_server_info`) to mark the end of its burst. ``settle()`` adds such a
/// marker on demand: it returns once everything that happened before it has been taken in.
///
/// Removed objects cannot be introspected: the snapshot simply stops listing them, and the
/// backend keeps the previous snapshot to describe them (the previous route). The context must
/// not be iterated through ``PulseContext/events`` while a monitor is attached.
final class PulseServerMonitor: @unchecked Sendable {
  let context: PulseContext
  private let onSettled: @Sendable (PulseServerSnapshot) -> Void
  private let onEnded: @Sendable (PulseContextState) -> Void
  private let onSinkRemoved:
    (@Sendable (_ sink: UInt32, _ streams: [UInt32], _ sequence: Int) -> Void)?

  // Guarded by the loop lock.
  private var server: PulseServerInfo?
  private var sinks: [UInt32: PulseDeviceSnapshot] = [:]
  private var sources: [UInt32: PulseDeviceSnapshot] = [:]
  private var sinkInputs: [UInt32: PulseSinkInput] = [:]
  private var sourceOutputs: [UInt32: PulseSourceOutput] = [:]
  private var cards: [UInt32: PulseCard] = [:]
  /// The clients of streams that do not say their process (native PipeWire clients), looked up
  /// once each (``PulseClientInfo``); those no stream names any more are dropped.
  private var clients: [UInt32: PulseClientInfo] = [:]
  private var fetchingClients: Set<UInt32> = []
  private var outstanding = 0
  /// Objects with a fetch in flight: an event for one of them needs no second fetch, since the
  /// reply, sent after the event, already reflects it.
  private var fetching: Set<PulseSubscriptionEvent> = []
  private var sequence = 0
  private var waiters: [CheckedContinuation<PulseServerSnapshot?, Never>] = []
  private var ended = false

  /// The object kinds a monitor subscribes to (not modules and clients: they are noisy and carry
  /// nothing a route or a call depends on, docs/pulseaudio.md §6).
  static let facilities: Set<PulseFacility> = [
    .sink, .source, .sinkInput, .sourceOutput, .server, .card,
  ]

  /// - Parameters:
  ///   - context: a connected context, used by nothing else that reads its events.
  ///   - onSettled: called on the loop thread with each settled snapshot; it must not block.
  ///   - onEnded: called once on the loop thread when the connection fails or terminates.
  ///   - onSinkRemoved: called on the loop thread as a sink's removal is seen, before anything
  ///     else of its burst, with the playback streams last seen on it (the server moved them
  ///     away first, but their new details are not in yet) and the last settled snapshot's
  ///     sequence; it must not block.
  init(
    context: PulseContext, onSettled: @escaping @Sendable (PulseServerSnapshot) -> Void,
    onEnded: @escaping @Sendable (PulseContextState) -> Void,
    onSinkRemoved: (@Sendable (_ sink: UInt32, _ streams: [UInt32], _ sequence: Int) -> Void)? =
      nil
  ) {
    self.context = context
    self.onSettled = onSettled
    self.onEnded = onEnded
    self.onSinkRemoved = onSinkRemoved
  }

  /// Subscribes, lists everything, and returns the first settled snapshot.
  func start() async throws(PulseError) -> PulseServerSnapshot {
    context.setEventHandler { [weak self] event in self?.handle(event) }
    try await context.subscribe(to: Self.facilities)
    context.mainloop.withLock { listEverything() }
    guard let first = await settle() else { throw .connectionTerminated }
    return first
  }

  /// Returns the snapshot once everything that happened on the server before this call has been
  /// taken in (a round trip, plus the requests of any events it overtook); nil once the
  /// connection has ended.
  func settle() async -> PulseServerSnapshot? {
    await withCheckedContinuation { continuation in
      context.mainloop.withLock {
        guard !ended else {
          continuation.resume(returning: nil)
          return
        }
        waiters.append(continuation)
        fetchServerInfo()
      }
    }
  }

  /// Asks for one more settle and returns the sequence of the last settled snapshot: a snapshot
  /// with a larger sequence has taken in everything the server did before this call. Call it
  /// on the loop thread, from an event handler of a stream on the same context (a stream event
  /// reaches the client before the subscription events of the same server operation, which a
  /// request sent now is answered after).
  func requestSettle() -> Int {
    context.mainloop.withLock {
      if !ended { fetchServerInfo() }
      return sequence
    }
  }

  /// Asks again for the playback streams shown on no sink, as a `change` of each would
  /// (pipewire-pulse 1.4 announces no change when WirePlumber links a new native stream to a
  /// sink); whether there were any.
  func refetchUnlinkedStreams() -> Bool {
    context.mainloop.withLock {
      guard !ended else { return false }
      let unlinked = sinkInputs.values.filter { sinks[$0.sinkIndex] == nil }.map(\.index)
      for index in unlinked.sorted() {
        handle(PulseSubscriptionEvent(kind: .change, facility: .sinkInput, index: index))
      }
      return !unlinked.isEmpty
    }
  }

  /// Detaches from the context: no more snapshots; pending ``settle()`` calls return nil.
  func stop() {
    context.setEventHandler(nil)
    context.mainloop.withLock { end() }
  }

  // MARK: On the loop thread

  private func handle(_ event: PulseContextEvent) {
    switch event {
    case .state(let state):
      switch state {
      case .failed, .terminated:
        guard !ended else { return }
        end()
        onEnded(state)
      case .unconnected, .connecting, .authorizing, .settingName, .ready:
        break
      }
    case .subscription(let event):
      handle(event)
    }
  }

  private func handle(_ event: PulseSubscriptionEvent) {
    guard !ended else { return }
    switch (event.facility, event.kind, event.index) {
    case (.server, _, _):
      fetchServerInfo()
    case (.sink, .remove, let index?):
      if let onSinkRemoved {
        let streams = sinkInputs.values.filter { $0.sinkIndex == index }.map(\.index)
        if !streams.isEmpty { onSinkRemoved(index, streams.sorted(), sequence) }
      }
      sinks[index] = nil
      markEndOfBurst()
    case (.source, .remove, let index?):
      sources[index] = nil
      markEndOfBurst()
    case (.sinkInput, .remove, let index?):
      sinkInputs[index] = nil
      markEndOfBurst()
    case (.sourceOutput, .remove, let index?):
      sourceOutputs[index] = nil
      markEndOfBurst()
    case (.card, .remove, let index?):
      cards[index] = nil
      markEndOfBurst()
    case (.sink, _, let index?):
      fetch(event) { [self] in
        sinks[index] = $0
      } _: { context, userdata in
        pa_context_get_sink_info_by_index(context, index, PulseContext.sinkReceived, userdata)
      }
    case (.source, _, let index?):
      fetch(event) { [self] in
        sources[index] = $0
      } _: { context, userdata in
        pa_context_get_source_info_by_index(context, index, PulseContext.sourceReceived, userdata)
      }
    case (.sinkInput, _, let index?):
      fetch(event) { [self] in
        sinkInputs[index] = $0
      } _: { context, userdata in
        pa_context_get_sink_input_info(context, index, PulseContext.sinkInputReceived, userdata)
      }
    case (.sourceOutput, _, let index?):
      fetch(event) { [self] in
        sourceOutputs[index] = $0
      } _: { context, userdata in
        pa_context_get_source_output_info(
          context, index, PulseContext.sourceOutputReceived, userdata)
      }
    case (.card, _, let index?):
      fetch(event) { [self] in
        cards[index] = $0
      } _: { context, userdata in
        pa_context_get_card_info_by_index(context, index, PulseContext.cardReceived, userdata)
      }
    default:
      break
    }
  }

  /// Lists every kind of object; each list replaces what was known (it is newer than any reply
  /// sent before it, and replies that follow it are newer still).
  private func listEverything() {
    fetchServerInfo()
    list({ [self] in cards = Self.byIndex($0, \.index) }) { context, userdata in
      pa_context_get_card_info_list(context, PulseContext.cardReceived, userdata)
    }
    list({ [self] in sinks = Self.byIndex($0, \.index) }) { context, userdata in
      pa_context_get_sink_info_list(context, PulseContext.sinkReceived, userdata)
    }
    list({ [self] in sources = Self.byIndex($0, \.index) }) { context, userdata in
      pa_context_get_source_info_list(context, PulseContext.sourceReceived, userdata)
    }
    list({ [self] in sinkInputs = Self.byIndex($0, \.index) }) { context, userdata in
      pa_context_get_sink_input_info_list(context, PulseContext.sinkInputReceived, userdata)
    }
    list({ [self] in sourceOutputs = Self.byIndex($0, \.index) }) { context, userdata in
      pa_context_get_source_output_info_list(
        context, PulseContext.sourceOutputReceived, userdata)
    }
  }

  /// A `remove` needs no fetch; a reply still has to mark the end of its burst, unless one
  /// already will (every reply outstanding comes after this event).
  private func markEndOfBurst() {
    if outstanding == 0 { fetchServerInfo() }
  }

  private func fetchServerInfo() {
    outstanding += 1
    context.request({ [self] (reply: Result<[PulseServerInfo], PulseError>) in
      if case .success(let infos) = reply, let info = infos.first { server = info }
      finishRequest()
    }) { userdata in
      pa_context_get_server_info(context.context, PulseContext.serverInfoReceived, userdata)
    }
  }

  /// Fetches the object an event is about and hands it to `store`, or nil if it is gone
  /// already; nothing if a fetch of it is in flight.
  private func fetch<Element: Sendable>(
    _ event: PulseSubscriptionEvent, _ store: @escaping @Sendable (Element?) -> Void,
    _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
  ) {
    let key = PulseSubscriptionEvent(kind: .change, facility: event.facility, index: event.index)
    guard fetching.insert(key).inserted else { return }
    outstanding += 1
    context.request({ [self] (reply: Result<[Element], PulseError>) in
      fetching.remove(key)
      switch reply {
      case .success(let found): store(found.first)
      case .failure(.noSuchEntity): store(nil)
      case .failure: break
      }
      finishRequest()
    }) { userdata in start(context.context, userdata) }
  }

  /// Lists every object of a kind and hands the list to `replace`.
  private func list<Element: Sendable>(
    _ replace: @escaping @Sendable ([Element]) -> Void,
    _ start: (OpaquePointer, UnsafeMutableRawPointer) -> OpaquePointer?
  ) {
    outstanding += 1
    context.request({ [self] (reply: Result<[Element], PulseError>) in
      if case .success(let all) = reply { replace(all) }
      finishRequest()
    }) { userdata in start(context.context, userdata) }
  }

  private static func byIndex<Element>(
    _ elements: [Element], _ index: (Element) -> UInt32
  ) -> [UInt32: Element] {
    Dictionary(elements.map { (index($0), $0) }) { _, last in last }
  }

  private func finishRequest() {
    outstanding -= 1
    guard outstanding == 0, !ended else { return }
    // A stream that does not say its process: its client is looked up before the snapshot.
    if fetchMissingClients() { return }
    sequence += 1
    let snapshot = makeSnapshot()
    onSettled(snapshot)
    let resumed = waiters
    waiters = []
    for waiter in resumed { waiter.resume(returning: snapshot) }
  }

  /// Starts a lookup of each client whose stream says no process and that is not known yet;
  /// whether any started (the snapshot then waits for them).
  private func fetchMissingClients() -> Bool {
    let native = server?.isPipeWire == true
    let needed = Set(
      sinkInputs.values.filter { PulseClientInfo.needsClient($0.properties, native: native) }
        .compactMap(\.clientIndex)
        + sourceOutputs.values.filter {
          PulseClientInfo.needsClient($0.properties, native: native)
        }
        .compactMap(\.clientIndex))
    clients = clients.filter { needed.contains($0.key) }
    let missing = needed.subtracting(clients.keys).subtracting(fetchingClients)
    for index in missing.sorted() {
      fetchingClients.insert(index)
      outstanding += 1
      context.request({ [self] (reply: Result<[PulseClientInfo], PulseError>) in
        fetchingClients.remove(index)
        // A client that is gone, or does not answer, is known as one that says nothing.
        let found = (try? reply.get())?.first
        clients[index] = found ?? PulseClientInfo(index: index, properties: [:])
        finishRequest()
      }) { userdata in
        pa_context_get_client_info(context.context, index, PulseContext.clientReceived, userdata)
      }
    }
    return !missing.isEmpty
  }

  private func makeSnapshot() -> PulseServerSnapshot {
    let withCards = { (device: PulseDeviceSnapshot) -> PulseDeviceSnapshot in
      var device = device
      device.cardName = device.cardIndex.flatMap { self.cards[$0]?.name }
      return device
    }
    let devices =
      sinks.values.sorted { $0.index < $1.index }.map(withCards)
      + sources.values.sorted { $0.index < $1.index }.map(withCards)
    let completing = { (properties: [String: String], client: UInt32?) -> [String: String] in
      guard let client, let info = self.clients[client] else { return properties }
      return info.completing(properties)
    }
    return PulseServerSnapshot(
      sequence: sequence, server: server, devices: devices,
      sinkInputs: sinkInputs.values.sorted { $0.index < $1.index }.map {
        var input = $0
        input.properties = completing(input.properties, input.clientIndex)
        return input
      },
      sourceOutputs: sourceOutputs.values.sorted { $0.index < $1.index }.map {
        var output = $0
        output.properties = completing(output.properties, output.clientIndex)
        return output
      },
      cards: cards.values.sorted { $0.index < $1.index })
  }

  private func end() {
    guard !ended else { return }
    ended = true
    let resumed = waiters
    waiters = []
    for waiter in resumed { waiter.resume(returning: nil) }
  }
}
