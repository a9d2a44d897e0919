/// A problem in a scenario file: where it is, what was expected and what was found.
///
/// The description is `FILE:LINE:COLUMN: message`, so editors can jump to it.
import AudioSession

public struct ScenarioError: Error, Sendable, Hashable, CustomStringConvertible {
  public var location: FileLocation
  /// What was expected, what was found (a sentence without the location).
  public var message: String

  public init(_ message: String, at location: FileLocation) {
    self.location = location
    self.message = message
  }

  public var description: String { "\(location): \(message)" }
}

/// Every problem found in a scenario file, in file order. A scenario with any problem runs no step.
public struct ScenarioErrors: Error, Sendable, Hashable, CustomStringConvertible {
  /// Never empty.
  public var errors: [ScenarioError]

  public init(_ errors: [ScenarioError]) {
    self.errors = errors
  }

  /// One problem per line, each `FILE:LINE:COLUMN: message`.
  public var description: String {
    errors.map(\.description).joined(separator: "\n")
  }
}
