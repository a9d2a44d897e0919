import AudioSession
import AudioSessionSystem
import AudioSessionWire
import FoundationEssentials
import Synchronization

/// Prints what `sessionctl watch` sees, one line at a time and unbuffered (a pipe sees each line
/// as it happens): the notifications, and the daemon going away and coming back.
///
/// While the watcher (re)subscribes, notifications are held back, so that the line saying the
/// daemon is back comes before anything the new connection delivers.
final class WatchPrinter: Sendable {
  let json: Bool
  /// Whether notifications are held back, and those held; a line is written with it locked.
  private let state = Mutex((holding: true, held: [String]()))

  init(json: Bool) {
    self.json = json
  }

  /// Prints a notification, or holds it while subscribing.
  func print(_ notification: SessionNotification) {
    let line =
      json
      ? WireNotification.json(notification).serialized
      : LiveOutput.notificationLines([notification])[0]
    state.withLock { state in
      if state.holding {
        state.held.append(line)
      } else {
        write(line)
      }
    }
  }

  /// Holds notifications back until ``release(after:)``.
  func hold() {
    state.withLock { $0.holding = true }
  }

  /// Prints `event` (if any), then the notifications held back, and prints notifications as
  /// they come from now on.
  func release(after event: WatchEvent?) {
    state.withLock { state in
      if let event { write(line(for: event)) }
      state.held.forEach(write)
      state.held.removeAll()
      state.holding = false
    }
  }

  /// Prints `event` at once.
  func announce(_ event: WatchEvent) {
    state.withLock { _ in write(line(for: event)) }
  }

  /// What happened to the daemon the watcher is connected to.
  enum WatchEvent {
    /// The daemon went away (the library's sessions are told `mediaServicesWereLost`); the
    /// watcher waits for it to come back, or exits (`--exit-on-close`).
    case lost(waiting: Bool)
    /// The watcher is subscribed again to a daemon on the same socket (the library's sessions
    /// are told `mediaServicesWereReset`).
    case reset(filter: String)
  }

  /// `{"event":"mediaServicesWereLost"}` (no `session`: it is about the daemon, not a session),
  /// or a sentence for people.
  func line(for event: WatchEvent) -> String {
    switch event {
    case .lost(let waiting):
      json
        ? #"{"event":"mediaServicesWereLost"}"#
        : "the audio session daemon stopped (mediaServicesWereLost)"
          + (waiting ? "; waiting for it to come back" : "")
    case .reset(let filter):
      json
        ? #"{"event":"mediaServicesWereReset"}"#
        : "the audio session daemon restarted (mediaServicesWereReset); watching \(filter) again"
    }
  }

  private func write(_ line: String) {
    StandardStreams.writeOutput(line + "\n")
  }
}
