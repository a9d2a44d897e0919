import AudioSession

/// What the backend's actions wait for on the server, and whether changes are held back for a
/// running action (``PulseAudioBackend/perform(_:)`` returns the inputs of its own change
/// instead of sending them as observed ones).
///
/// Pure: each waiting action is a `Waiter` (the backend's: a continuation) under an
/// ``Expectation``; the list says which to wake when the server's state changes, which one a
/// time limit ends, and which a lost connection fails. Every waiter comes out exactly once.
struct PulseWaitList<Waiter> {
  typealias Expectation = PulseExpectation

  /// While positive, changes are kept for the running action instead of being published.
  var holding = 0
  private var waiting: [Int: (expectation: Expectation, waiter: Waiter)] = [:]
  private var next = 0

  /// The number of waiting actions.
  var count: Int { waiting.count }

  /// Adds a waiter; returns its number (for ``expire(_:)``).
  mutating func add(_ waiter: Waiter, for expectation: Expectation) -> Int {
    next += 1
    waiting[next] = (expectation, waiter)
    return next
  }

  /// Takes out the waiters whose expectation `isMet`, in the order they came.
  mutating func takeMet(_ isMet: (Expectation) -> Bool) -> [Waiter] {
    take { isMet($0) }.map(\.waiter)
  }

  /// Takes out the waiter `id` whose time is up (nil: it was woken or failed already).
  mutating func expire(_ id: Int) -> (expectation: Expectation, waiter: Waiter)? {
    waiting.removeValue(forKey: id)
  }

  /// Takes out the waiters a lost connection fails (all but those waiting for it to come back),
  /// in the order they came.
  mutating func takeFailedByLoss() -> [(expectation: Expectation, waiter: Waiter)] {
    take { !$0.survivesLoss }
  }

  /// Takes out every waiter (the backend stops), in the order they came.
  mutating func takeAll() -> [(expectation: Expectation, waiter: Waiter)] {
    take { _ in true }
  }

  private mutating func take(
    _ chosen: (Expectation) -> Bool
  ) -> [(expectation: Expectation, waiter: Waiter)] {
    // On every snapshot: most often nothing waits.
    guard !waiting.isEmpty else { return [] }
    var taken: [(expectation: Expectation, waiter: Waiter)] = []
    for id in waiting.keys.sorted() {
      guard let entry = waiting[id], chosen(entry.expectation) else { continue }
      waiting[id] = nil
      taken.append(entry)
    }
    return taken
  }
}

/// What an action waits for.
enum PulseExpectation: Sendable, Hashable, CustomStringConvertible {
  case device(uid: String, present: Bool)
  case call(active: Bool)
  case micMuted(Bool)
  case volume(Double)
  case clientGone(UInt32)
  case connection(after: Int)

  var description: String {
    switch self {
    case .device(let uid, let present): "device \(uid) to be \(present ? "added" : "removed")"
    case .call(let active): "the call to \(active ? "begin" : "end")"
    case .micMuted(let on): "the microphone to be \(on ? "muted" : "unmuted")"
    case .volume(let volume): "the default sink's volume to be \(volume)"
    case .clientGone(let client): "the streams of client \(client) to end"
    case .connection: "the server to come back"
    }
  }

  /// Whether the server shows it: `state` as the server shows it now, the last connection
  /// fully restored, and whether a client has playback streams on the server.
  func isMet(
    by state: PulseSystemState, restoredConnection: Int, clientPlays: (UInt32) -> Bool
  ) -> Bool {
    guard state.connected else { return false }
    switch self {
    case .device(let uid, let present): return state.devices.contains { $0.uid == uid } == present
    case .call(let active): return state.callActive == active
    case .micMuted(let on): return state.builtInMicMuted == on
    case .volume(let volume):
      return state.outputVolume.map { abs($0 - volume) < 0.001 } == true
    case .clientGone(let client): return !clientPlays(client)
    case .connection(let after): return restoredConnection > after
    }
  }

  /// Whether it can come true without a connection (only the connection's coming back).
  var survivesLoss: Bool {
    if case .connection = self { return true }
    return false
  }
}
