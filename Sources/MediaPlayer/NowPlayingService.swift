import AudioSession
import AudioSessionClient
import AudioSessionMPRISPlayer
import AudioSessionSystem
import Foundation

/// Not Apple's: the process's Now Playing information and remote commands served as an MPRIS
/// player on the session bus, as a Linux desktop's media keys, lock screen and `playerctl` expect
/// (docs/ios-compat.md "MediaPlayer over MPRIS").
///
/// ``MPNowPlayingInfoCenter`` and ``MPRemoteCommand`` call ``changed()`` whenever what they hold
/// changes. While the app has Now Playing information or a target on a command of
/// `MPRemoteCommandCenter.shared()`, an ``MPRISPlayerService`` (its own thread) holds the name
/// `org.mpris.MediaPlayer2.<process>.instance<pid>`, reads ``state()`` and hands a client's call
/// to ``perform(_:)``, which sends the matching command as ``MPRemoteCommand/send(_:)`` does.
/// Without a session bus nothing is served and nothing is said.
package final class NowPlayingService: @unchecked Sendable {
  /// Which bus the player is served on.
  package enum Bus: Sendable, Hashable {
    /// `DBUS_SESSION_BUS_ADDRESS`, else `$XDG_RUNTIME_DIR/bus` if it exists; none without either.
    case environment
    /// None: nothing is served.
    case none
    case address(String)
  }

  static let shared = NowPlayingService()

  private let lock = NSLock()
  private var bus = Bus.environment
  private var service: (any MPRISPlayerServing)?
  /// The current track's identity and number (`mpris:trackid`).
  private var track: (identity: [String], number: Int)?

  /// The well-known name: the process's name reduced to what a bus name allows, and its pid.
  package static let busName: String = {
    var name = String(
      ProcessInfo.processInfo.processName.unicodeScalars.prefix(64).map { scalar in
        scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "_")
          ? Character(scalar) : "_"
      })
    if name.isEmpty { name = "app" }
    if name.first?.isNumber == true { name = "_" + name }
    return "org.mpris.MediaPlayer2.\(name).instance\(getpid())"
  }()

  /// Not Apple's, for tests and demos: serves the player on `bus` from now on (the default is
  /// the environment's); a player served elsewhere is withdrawn first.
  package static func use(_ bus: Bus) {
    shared.lock.withLock {
      shared.bus = bus
      shared.service?.stop()
      shared.service = nil
    }
    shared.changed()
  }

  /// Whether the player's name is held on the bus now.
  package static var isServing: Bool {
    shared.lock.withLock { shared.service?.isServing == true }
  }

  /// What the app holds changed: the player is served, updated or withdrawn (on its own
  /// thread; this returns at once).
  func changed() {
    let wanted = Self.hasSomethingToServe()
    lock.lock()
    defer { lock.unlock() }
    if let service {
      service.changed()
      return
    }
    guard wanted, let address = address() else { return }
    let made = makeMPRISPlayerService(
      busName: Self.busName, identity: ProcessInfo.processInfo.processName, address: address,
      state: { NowPlayingService.shared.state() },
      perform: { NowPlayingService.shared.perform($0) })
    service = made
    made.changed()
  }

  private func address() -> String? {
    switch bus {
    case .none: nil
    case .address(let address): address
    case .environment:
      mprisSessionBusAddress(environment: ProcessInfo.processInfo.environment)
    }
  }

  /// Now Playing information, or a target on one of the shared center's commands.
  private static func hasSomethingToServe() -> Bool {
    MPNowPlayingInfoCenter.default().nowPlayingInfo != nil
      || MPRemoteCommandCenter.shared().allCommands.contains { $0.hasTargets }
  }

  /// What the player shows now; nil when there is nothing to serve.
  func state() -> MPRISPlayerState? {
    let center = MPNowPlayingInfoCenter.default()
    let (info, since) = center.infoAndTime
    let commands = MPRemoteCommandCenter.shared()
    guard info != nil || commands.allCommands.contains(where: { $0.hasTargets }) else {
      return nil
    }
    let number = lock.withLock { trackNumber(for: info) }
    return NowPlayingState.make(
      info: info, since: since, playbackState: center.playbackState, commands: commands,
      trackNumber: number)
  }

  /// The number of the track `info` describes: a new one whenever its identity changes.
  private func trackNumber(for info: [String: Any]?) -> Int? {
    guard let info else { return nil }
    let identity = NowPlayingState.trackIdentity(info)
    if let track, track.identity == identity { return track.number }
    let number = (track?.number ?? 0) + 1
    track = (identity, number)
    return number
  }

  /// A client's call, as the remote command it stands for (docs/ios-compat.md "MediaPlayer over
  /// MPRIS"): sent as ``MPRemoteCommand/send(_:)`` sends it, so a disabled command or one
  /// without a target does nothing. Which command is decided here, on the bus's thread; the
  /// handlers run on the main queue, as iOS runs them.
  func perform(_ call: MPRISPlayerCall) {
    guard let (command, event) = command(for: call) else { return }
    DispatchQueue.main.async { command.send(event) }
  }

  /// The command a call sends, and its event (nil: the plain one); nil when it sends none.
  func command(for call: MPRISPlayerCall) -> (MPRemoteCommand, MPRemoteCommandEvent?)? {
    guard let state = state() else { return nil }
    let commands = MPRemoteCommandCenter.shared()
    switch call {
    case .play: return (commands.playCommand, nil)
    case .pause: return (commands.pauseCommand, nil)
    case .playPause:
      if commands.togglePlayPauseCommand.isAvailable {
        return (commands.togglePlayPauseCommand, nil)
      }
      return (state.playbackStatus == .playing ? commands.pauseCommand : commands.playCommand, nil)
    case .stop: return (commands.stopCommand, nil)
    case .next: return (commands.nextTrackCommand, nil)
    case .previous: return (commands.previousTrackCommand, nil)
    case .seek(let offset):
      return seek(by: offset, from: state, commands)
    case .setPosition(let trackID, let position):
      // A call for another track, or out of the track, is ignored (the specification).
      guard trackID == state.metadata.trackID, position >= 0,
        position <= state.metadata.length ?? .max
      else { return nil }
      let command = commands.changePlaybackPositionCommand
      return (
        command,
        MPChangePlaybackPositionCommandEvent(
          command: command, positionTime: Double(position) / 1e6)
      )
    case .setRate(let rate):
      let command = commands.changePlaybackRateCommand
      return (
        command, MPChangePlaybackRateCommandEvent(command: command, playbackRate: Float(rate))
      )
    }
  }

  /// `Seek`: to the position `offset` away through `changePlaybackPositionCommand` when it can
  /// be sent (past the end: `nextTrackCommand`, as the specification says), else a skip of
  /// that interval through `skipForwardCommand` or `skipBackwardCommand`.
  private func seek(
    by offset: Int64, from state: MPRISPlayerState, _ commands: MPRemoteCommandCenter
  ) -> (MPRemoteCommand, MPRemoteCommandEvent?)? {
    guard offset != 0 else { return nil }
    let position = commands.changePlaybackPositionCommand
    guard position.isAvailable else {
      let skip = offset > 0 ? commands.skipForwardCommand : commands.skipBackwardCommand
      return (
        skip,
        MPSkipIntervalCommandEvent(command: skip, interval: Double(offset.magnitude) / 1e6)
      )
    }
    let (target, overflow) = state.position.microseconds(at: MonotonicInstant.now())
      .addingReportingOverflow(offset)
    if overflow || target > state.metadata.length ?? .max {
      return (commands.nextTrackCommand, nil)
    }
    return (
      position,
      MPChangePlaybackPositionCommandEvent(
        command: position, positionTime: Double(max(target, 0)) / 1e6)
    )
  }
}
