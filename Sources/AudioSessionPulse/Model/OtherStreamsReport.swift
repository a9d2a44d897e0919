import AudioSession

/// Other programs' streams as the host was told of them (``ServerStreamEvent``s), and those
/// whose mute or ducking the backend undid lately.
///
/// Pure: each settled snapshot's streams in; the events that bring the host's copy to them,
/// the streams that went (with what was undone on them just before) and the streams that
/// appeared, out. On a new connection the host gets every stream at once (`.snapshot`); after
/// that, what changed: a stream gone, or whose index another client's stream now has
/// (pipewire-pulse reuses ids, and both can fall in one burst), is `.removed` (and, in the second
/// case, new); a stream new or changed is `.updated` (docs/apps.md "On the server"). A new
/// connection forgets the undos: the streams they were about went with the last one.
struct OtherStreamsReport: Sendable {
  /// What the host was last told, by key.
  private(set) var reported: [ServerStream.Key: ServerStream] = [:]
  /// The connection the streams were reported on.
  private var connection = 0
  /// The streams whose mute or ducking was undone lately (``noteUndone(_:muted:original:at:)``).
  private var undoneLately: [ServerStream.Key: UndoneStream] = [:]

  /// What one snapshot changed.
  struct Change: Sendable {
    /// The events for the host, in order.
    var events: [ServerStreamEvent] = []
    /// Whether the events are a whole snapshot (a new connection): nothing went or appeared.
    var isSnapshot = false
    /// The streams that went, as last reported, each with what was undone on it within
    /// ``UndoneStream/window`` before (nil: nothing).
    var gone: [(stream: ServerStream, undone: UndoneStream?)] = []
    /// The streams new to the host (a reused index counts as new).
    var appeared: Set<ServerStream.Key> = []
  }

  /// Takes the streams a snapshot of connection `number` shows (`now`: when, for the undos).
  mutating func take(
    _ current: [ServerStream], connection number: Int, at now: ContinuousClock.Instant = .now
  ) -> Change {
    let byKey = Dictionary(current.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
    var change = Change()
    guard number == connection else {
      // Indices of the last connection's streams mean nothing on this one: its undos go too.
      connection = number
      undoneLately = [:]
      reported = byKey
      change.isSnapshot = true
      change.events = [.snapshot(byKey.values.sorted { $0.key < $1.key })]
      return change
    }
    for key in reported.keys.sorted()
    where byKey[key] == nil || byKey[key]?.clientIndex != reported[key]?.clientIndex {
      change.events.append(.removed(key))
      if let gone = reported.removeValue(forKey: key) {
        change.gone.append((gone, undoneLately[key].flatMap { $0.isRecent(at: now) ? $0 : nil }))
      }
      undoneLately[key] = nil
    }
    change.appeared = Set(byKey.keys).subtracting(reported.keys)
    for stream in byKey.values.sorted(by: { $0.key < $1.key }) where reported[stream.key] != stream
    {
      change.events.append(.updated(stream))
    }
    reported = byKey
    return change
  }

  /// Notes an undo sent for a stream still reported (its mute, or its volumes before ducking):
  /// if the stream goes within ``UndoneStream/window`` of it, it counts as gone with the change
  /// (``Change/gone``). A stream not reported: nothing.
  mutating func noteUndone(
    _ key: ServerStream.Key, muted: Bool, original: [PulseVolume]?,
    at now: ContinuousClock.Instant = .now
  ) {
    guard let stream = reported[key] else { return }
    undoneLately = undoneLately.filter { $0.value.isRecent(at: now) }
    var undone =
      undoneLately[key]
      ?? UndoneStream(stream: stream, state: OtherStreamsModel.StreamState(), at: now)
    undone.at = now
    undone.state.mutedByUs = undone.state.mutedByUs || muted
    undone.state.savedVolumes = undone.state.savedVolumes ?? original
    undone.state.restoreName =
      undone.state.restoreName
      ?? PulseStreamRestoreEntry.name(of: stream.properties, direction: key.direction)
    undoneLately[key] = undone
  }

  /// The streams undone within ``UndoneStream/window`` of `now`, by key.
  func undone(at now: ContinuousClock.Instant = .now) -> [(
    key: ServerStream.Key, undone: UndoneStream
  )] {
    undoneLately.filter { $0.value.isRecent(at: now) }.sorted { $0.key < $1.key }.map {
      ($0.key, $0.value)
    }
  }

  /// The same, forgotten here (the backend stops, and deals with each).
  mutating func takeUndone(at now: ContinuousClock.Instant = .now) -> [(
    key: ServerStream.Key, undone: UndoneStream
  )] {
    defer { undoneLately = [:] }
    return undone(at: now)
  }
}

/// A stream of another program whose mute or ducking the backend just undid, and what the
/// undo gave back.
struct UndoneStream: Sendable {
  /// How long after the undo the stream's going counts as going with the change.
  static let window = Duration.seconds(2)

  var stream: ServerStream
  var state: OtherStreamsModel.StreamState
  var at: ContinuousClock.Instant

  func isRecent(at now: ContinuousClock.Instant = .now) -> Bool { now < at + Self.window }
}
