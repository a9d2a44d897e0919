/// A position in a scenario file, as editors and compilers print it (`FILE:LINE:COLUMN`).
import AudioSession

public struct FileLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file as the user named it.
  public var file: String
  /// 1-based line.
  public var line: Int
  /// 1-based column, counted in Unicode scalars (as libyaml counts).
  public var column: Int

  public init(file: String, line: Int, column: Int) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `FILE:LINE:COLUMN`.
  public var description: String { "\(file):\(line):\(column)" }
}

/// A value read from a scenario file, with where it was written.
public struct Located<Value: Sendable & Hashable>: Sendable, Hashable {
  public var value: Value
  public var location: FileLocation

  public init(_ value: Value, at location: FileLocation) {
    self.value = value
    self.location = location
  }
}
