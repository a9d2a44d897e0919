/// The programs a scenario's steps start, as the steps are read: a step that names a program no
/// earlier step started, starts one twice, or commands the player of one that has none, is a
/// problem of the file, found before anything runs (docs/contract.md "Desktop steps", "Bad
/// input").
public struct DesktopCast: Sendable {
  /// The programs started and not stopped, with whether each has a player.
  private var running: [String: Bool] = [:]
  private var order: [String] = []

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
      guard running[name] != nil else { return notStarted(name) }
      if act == .stop { running[name] = nil }
    case .user(let name, _):
      guard let hasPlayer = running[name] else { return notStarted(name) }
      if !hasPlayer {
        return "the program '\(name)' has no player for the user to command; start it with "
          + "--player BUS"
      }
    case .daemonRestart, .wait, .rolePolicy, .heard:
      break
    }
    return nil
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
