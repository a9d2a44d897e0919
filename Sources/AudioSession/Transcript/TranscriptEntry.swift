/// One step of a transcript: its number, its text as written, and what running it gave.
public struct TranscriptEntry: Sendable, Hashable {
  /// 1-based.
  public var step: Int
  /// The step's command line exactly as written in the scenario.
  public var command: String
  /// The result, then the notifications the step caused.
  public var result: CommandResult
  /// Every session's state once the step and its notifications are done, when the run was asked
  /// to record it (for a timeline, ``TimelineSVG``); nil otherwise.
  public var after: EngineStatus?
  /// What the step shows of other programs on a scenario's desktop (docs/contract.md "Desktop
  /// steps"), after its notifications; empty otherwise.
  public var desktop = DesktopReport()

  public init(
    step: Int, command: String, result: CommandResult, after: EngineStatus? = nil,
    desktop: DesktopReport = DesktopReport()
  ) {
    self.step = step
    self.command = command
    self.result = result
    self.after = after
    self.desktop = desktop
  }

  /// The JSON lines of this step (docs/contract.md "The transcript"): first the result, then one
  /// line per notification in posting order, then what it shows of other programs.
  public var jsonLines: [String] {
    let because = result.because.count == result.notifications.count ? result.because : []
    return [TranscriptJSON.result(self).serialized]
      + result.notifications.enumerated().map { index, notification in
        var object = TranscriptJSON.notification(notification, step: step)
        if index < because.count {
          object.append("because", .object(TranscriptJSON.because(because[index])))
        }
        return object.serialized
      } + desktop.jsonLines(step: step)
  }
}
