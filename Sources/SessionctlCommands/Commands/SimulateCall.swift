import ArgumentParser
import AudioSession

extension Sessionctl.Simulate {
  /// `sessionctl simulate call ring|begin|end [--style banner|fullScreen]`.
  struct Call: SimulateCommand {
    static let configuration = CommandConfiguration(
      commandName: "call",
      abstract:
        "Rings, begins or ends a phone call, which interrupts every session (spec §5.1 A4).",
      discussion: """
        ring: a call rings, full screen unless --style banner; it interrupts every active \
        session, except, for a banner, the sessions that prefer no interruptions from system \
        alerts (sessionctl prefer noInterruptionsFromSystemAlerts on). begin: answers the \
        ringing call (interrupting those too) or starts one. end: hangs up, or declines a call \
        that only rang (docs/avaudiosession.md §13.5).
        """)

    @Argument(help: "ring, begin or end.")
    var phase: CallPhase

    @Option(help: "How a ringing call shows: banner or fullScreen (only with ring).")
    var style: CallStyle?

    @Flag(help: "Print the reply and the notifications as JSON lines.")
    var json = false

    @OptionGroup var connection: LiveConnectionOptions

    func validate() throws {
      if style != nil, phase != .ring {
        throw ValidationError("--style goes with 'call ring' only")
      }
    }

    var action: SimulationAction {
      switch phase {
      case .ring: .callRing(style ?? .fullScreen)
      case .begin: .call(active: true)
      case .end: .call(active: false)
      }
    }
  }
}
