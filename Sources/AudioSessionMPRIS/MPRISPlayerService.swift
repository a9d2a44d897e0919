import AudioSession
package import AudioSessionMPRISPlayer
import AudioSessionSystem
import CSDBus
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

/// The app's own player on the D-Bus session bus: the `MediaPlayer` module's Now Playing
/// information and remote commands, served as an MPRIS player (docs/ios-compat.md "MediaPlayer
/// over MPRIS"; https://specifications.freedesktop.org/mpris-spec/latest/).
///
/// While ``state`` gives a state (the app has Now Playing information or a command target), the
/// service holds a connection to the bus, exports `/org/mpris/MediaPlayer2` with the
/// `org.mpris.MediaPlayer2` and `org.mpris.MediaPlayer2.Player` interfaces and claims
/// ``busName``; when it gives nil, the connection is closed, which releases the name. A client's
/// method call is handed to ``perform``; after every ``changed()`` the state is read again and
/// the properties that changed are signalled (`PropertiesChanged`, and `Seeked` when the position
/// jumps).
///
/// One thread owns the connection (sd-bus is not thread-safe): it sleeps in `poll` on the bus and
/// on a pipe that ``changed()`` and ``stop()`` write to, reads the state and calls ``perform`` on
/// that thread. Nothing the app calls waits for the bus. A bus that cannot be reached, or goes,
/// is reported once per process through `report`, and tried again (50 ms, doubling up to 2 s)
/// while there is something to serve.
package final class MPRISPlayerService: @unchecked Sendable {
  /// The well-known name, `org.mpris.MediaPlayer2.<app>.instance<pid>`.
  package let busName: String
  /// `org.mpris.MediaPlayer2.Identity`.
  package let identity: String
  /// The bus, `unix:path=…`.
  package let address: String
  let state: @Sendable () -> MPRISPlayerState?
  let perform: @Sendable (MPRISPlayerCall) -> Void
  private let report: @Sendable (String) -> Void

  /// Shared with other threads.
  private struct Shared {
    var started = false
    var stopping = false
    var serving = false
  }
  private let shared = Mutex(Shared())
  private let wakePipe = WakePipe()

  // The bus thread's own.
  private var connection: DBusConnection?
  /// The state last signalled.
  private var published: MPRISPlayerState?
  /// What the getters answer: the state last read.
  var current = MPRISPlayerState()
  /// A client called a method: the state is read again before the thread sleeps.
  var handledCall = false

  static let objectPath = "/org/mpris/MediaPlayer2"
  static let rootInterface = "org.mpris.MediaPlayer2"
  static let playerInterface = "org.mpris.MediaPlayer2.Player"

  /// - Parameters:
  ///   - state: What to serve, read on the bus thread after each ``changed()``; nil: nothing
  ///     (the name is released).
  ///   - perform: A client's call, run on the bus thread.
  ///   - report: Where a bus that cannot be reached is reported, once per process (default:
  ///     standard error).
  package init(
    busName: String, identity: String, address: String,
    state: @escaping @Sendable () -> MPRISPlayerState?,
    perform: @escaping @Sendable (MPRISPlayerCall) -> Void,
    report: @escaping @Sendable (String) -> Void = { StandardStreams.writeError($0 + "\n") }
  ) {
    self.busName = busName
    self.identity = identity
    self.address = address
    self.state = state
    self.perform = perform
    self.report = report
  }

  /// The state may have changed: the bus thread reads it again (and starts, the first time).
  /// Returns at once.
  package func changed() {
    let start = shared.withLock { shared in
      defer { shared.started = true }
      return !shared.started && !shared.stopping
    }
    if start {
      SystemThread.detach(name: "mpris-nowplay") { [self] in run() }
    } else {
      wake()
    }
  }

  /// Closes the connection (the name is released) and ends the thread; returns at once.
  package func stop() {
    shared.withLock { $0.stopping = true }
    wake()
  }

  /// Whether the name is held on the bus.
  package var isServing: Bool { shared.withLock { $0.serving } }

  private var isStopping: Bool { shared.withLock { $0.stopping } }

  private func wake() { wakePipe.wake() }

  // MARK: The bus thread

  private func run() {
    var backoff = Self.backoff
    var retryAt: MonotonicInstant?
    while !isStopping {
      guard let wanted = state() else {
        if connection != nil { disconnect() }
        backoff = Self.backoff
        retryAt = nil
        waitForWake(until: nil)
        continue
      }
      if connection == nil, retryAt.map({ MonotonicInstant.now() >= $0 }) ?? true {
        do throws(DBusError) {
          try connect(serving: wanted)
          backoff = Self.backoff
          retryAt = nil
        } catch {
          failed(error)
          retryAt = MonotonicInstant.now().adding(seconds: Self.seconds(backoff.nextDelay()))
        }
      }
      if let bus = connection {
        do throws(DBusError) {
          try publish(wanted, on: bus)
          while try bus.process() {}
          if handledCall {
            handledCall = false
            continue
          }
        } catch {
          failed(error)
          retryAt = MonotonicInstant.now().adding(seconds: Self.seconds(backoff.nextDelay()))
          continue
        }
      }
      waitForWake(until: retryAt)
    }
    disconnect()
  }

  private static let backoff = ReconnectBackoff(first: .milliseconds(50), longest: .seconds(2))

  private func connect(serving state: MPRISPlayerState) throws(DBusError) {
    let bus = try DBusConnection(address: address)
    let userdata = Unmanaged.passUnretained(self).toOpaque()
    for table in Self.makeTables() {
      try bus.addObject(path: Self.objectPath, table: table, userdata: userdata)
    }
    connection = bus
    current = state
    published = state
    try bus.requestName(busName)
    shared.withLock { $0.serving = true }
  }

  private func disconnect() {
    // Freed once the thread's last reference goes, with the tables of its objects.
    connection = nil
    published = nil
    shared.withLock { $0.serving = false }
  }

  private func failed(_ error: DBusError) {
    disconnect()
    guard Self.reportedOnce.claim() else { return }
    report(
      """
      MediaPlayer: cannot serve Now Playing over MPRIS on the session bus \(address) \
      (\(error)); remote commands reach the app only in-process until the bus answers \
      (docs/ios-compat.md "MediaPlayer over MPRIS")
      """)
  }

  /// Makes `state` what the getters answer and signals what changed since it was last published.
  private func publish(_ state: MPRISPlayerState, on bus: DBusConnection) throws(DBusError) {
    current = state
    guard let old = published, old != state else { return }
    published = state
    try bus.emitPropertiesChanged(
      path: Self.objectPath, interface: Self.playerInterface,
      names: state.changedProperties(from: old))
    if let position = state.seeked(from: old, at: MonotonicInstant.now()) {
      try bus.emitSignal(
        path: Self.objectPath, interface: Self.playerInterface, member: "Seeked",
        arguments: [.int64(position)])
    }
  }

  private func waitForWake(until deadline: MonotonicInstant?) {
    var fds = [pollfd(fd: wakePipe.readEnd, events: Int16(POLLIN), revents: 0)]
    var limits = [deadline].compactMap { $0 }
    if let bus = connection, let state = try? bus.pollState() {
      fds.append(pollfd(fd: state.fd, events: state.events, revents: 0))
      if let busDeadline = state.deadline {
        limits.append(MonotonicInstant(nanoseconds: busDeadline &* 1000))
      }
    }
    var timeout: Int32 = -1
    if let limit = limits.min() {
      let now = MonotonicInstant.now()
      timeout =
        limit <= now
        ? 0 : Int32(min((limit.nanoseconds - now.nanoseconds + 999_999) / 1_000_000, 60_000))
    }
    _ = poll(&fds, nfds_t(fds.count), timeout)
    if fds[0].revents != 0 {
      wakePipe.drain()
    }
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(DBusConnection.microseconds(duration)) / 1e6
  }

  /// Whether the bus's failure was reported, once per process.
  private static let reportedOnce = OnceFlag()
}

/// A flag that can be claimed once.
private final class OnceFlag: Sendable {
  private let claimed = Mutex(false)

  /// True the first time only.
  func claim() -> Bool {
    claimed.withLock { claimed in
      defer { claimed = true }
      return !claimed
    }
  }
}
