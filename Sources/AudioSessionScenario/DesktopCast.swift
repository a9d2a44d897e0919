/// The programs a scenario's steps start, as the steps are read: a step that names a program no
/// earlier step started, starts one twice, or commands the player of one that has none, is a
/// problem of the file, found before anything runs (docs/contract.md "Desktop steps", "Bad
/// input").
public struct DesktopCast: Sendable {
  /// The programs started and not stopped, with whether each has a player.
  private var running: [String: Bool] = [:]
  private var order: [String] = []
  /// Whether the daemon is stopped (`simulate daemon stop`, until `simulate daemon start`).
  public private(set) var daemonStopped = false

  public init() {}

  /// Takes the next step's act; returns why it cannot be, or nil.
  public mutating func problem(_ act: DesktopAct) -> String? {
    switch act {
    case .start(let program):
      if running[program.name] != nil {
        return "the program '\(program.name)' already runs (an earlier step started it); "
          + "stop it first"
      }
      running[program.name] = program.player != nil
      if !order.contains(program.name) { order.append(program.name) }
    case .program(let name, let act):
      guard let hasPlayer = running[name] else { return notStarted(name) }
      if act == .stop { running[name] = nil }
      if act == .close, !hasPlayer {
        return "the program '\(name)' has no player to stay when its streams close; stop it "
          + "instead, or start it with --player BUS"
      }
    case .user(let name, _):
      guard let hasPlayer = running[name] else { return notStarted(name) }
      if !hasPlayer {
        return "the program '\(name)' has no player for the user to command; start it with "
          + "--player BUS"
      }
    case .daemonRestart:
      if daemonStopped { return "the daemon is stopped; start it with 'simulate daemon start'" }
    case .daemonStop:
      if daemonStopped { return "the daemon is already stopped (an earlier step stopped it)" }
      daemonStopped = true
    case .daemonStart:
      if !daemonStopped {
        return "the daemon runs; stop it first with 'simulate daemon stop', or restart it with "
          + "'simulate daemon restart'"
      }
      daemonStopped = false
    case .wait, .rolePolicy, .heard:
      break
    }
    return nil
  }

  /// Why a command for the daemon cannot be a step now, or nil: none can while the daemon is
  /// stopped.
  public func problem(command text: String) -> String? {
    guard daemonStopped else { return nil }
    return "no daemon runs to take '\(text)' (an earlier step stopped it); start it first with "
      + "'simulate daemon start'"
  }

  /// The audio server dies (`simulate server-restart`, `media-services lost`): the programs
  /// without a player die with it, and may be started again.
  public mutating func serverLost() {
    running = running.filter { $0.value }
  }

  private func notStarted(_ name: String) -> String {
    let names = order.filter { running[$0] != nil }.map { "'\($0)'" }
    return "no earlier step starts the program '\(name)' ("
      + (names.isEmpty ? "none runs" : "running: " + names.joined(separator: ", "))
      + "); start it with 'simulate program \(name) start --binary BINARY'"
  }
}
