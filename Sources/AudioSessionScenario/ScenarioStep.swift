/// One step of a scenario: a `sessionctl` command line as written in the file.
import AudioSession

public struct ScenarioStep: Sendable, Hashable {
  /// The command line, exactly as written (the transcript's `command`).
  public var text: String
  /// Where the step's text starts in the file.
  public var location: FileLocation

  public init(text: String, location: FileLocation) {
    self.text = text
    self.location = location
  }
}
