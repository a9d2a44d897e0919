/// A model enum whose values have a Swift case name that users type and read.
public protocol NamedCase: CaseIterable, Hashable, Sendable {
  var name: String { get }
  init?(name: String)
}

extension NamedCase {
  /// Looks a value up by its Swift case name.
  public init?(name: String) {
    guard let match = Self.allCases.first(where: { $0.name == name }) else { return nil }
    self = match
  }

  /// All case names, in declaration order, joined for an error message.
  public static var validNames: String {
    allCases.map(\.name).joined(separator: ", ")
  }

  /// Parses a case name or throws a ``SessionError`` (`badParam`) that lists the valid names.
  /// - Parameters:
  ///   - kind: what the name is, singular ("category").
  ///   - plural: the plural, when it is not `kind` + "s" ("categories").
  public static func parse(
    _ name: String, kind: String, plural: String? = nil
  ) throws(SessionError) -> Self {
    guard let value = Self(name: name) else {
      throw SessionError(
        .badParam, "unknown \(kind) '\(name)'; valid \(plural ?? kind + "s") are: \(validNames)")
    }
    return value
  }
}
