public import ArgumentParser
public import AudioSession

// Model enums on the command line go by their Swift case names (docs/contract.md "Commands"); a
// wrong name gets ArgumentParser's "Please provide one of …" with the valid names.

extension AudioSession.Category: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public var defaultValueDescription: String { name }
  public static var allValueStrings: [String] { allCases.map(\.name) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension Mode: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public var defaultValueDescription: String { name }
  public static var allValueStrings: [String] { allCases.map(\.name) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension PortOverride: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public var defaultValueDescription: String { name }
  public static var allValueStrings: [String] { allCases.map(\.name) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension AppState: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public var defaultValueDescription: String { name }
  public static var allValueStrings: [String] { allCases.map(\.name) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension RouteSharingPolicy: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public var defaultValueDescription: String { name }
  public static var allValueStrings: [String] { allCases.map(\.name) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension CallStyle: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public var defaultValueDescription: String { name }
  public static var allValueStrings: [String] { allCases.map(\.name) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

extension RecordPermission: ExpressibleByArgument {
  public init?(argument: String) { self.init(name: argument) }
  public var defaultValueDescription: String { name }
  public static var allValueStrings: [String] { allCases.map(\.name) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}

/// A comma-separated list of category options (`mixWithOthers,duckOthers`); `allowBluetooth` is
/// accepted for `allowBluetoothHFP` (docs/avaudiosession.md §12 D12), and an empty string is the
/// empty list.
struct CategoryOptionList: ExpressibleByArgument, Sendable, Hashable {
  var options: [CategoryOption]

  init(_ options: [CategoryOption]) {
    self.options = options
  }

  init?(argument: String) {
    guard !argument.isEmpty else {
      self.options = []
      return
    }
    var options: [CategoryOption] = []
    for word in argument.split(separator: ",", omittingEmptySubsequences: false) {
      guard let option = CategoryOption(name: String(word)) else { return nil }
      options.append(option)
    }
    self.options = options
  }

  var defaultValueDescription: String { options.map(\.name).joined(separator: ",") }

  static var allValueStrings: [String] { CategoryOption.allCases.map(\.name) }

  static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }

  /// The option set these names stand for.
  var bits: CategoryOptions { CategoryOptions(options) }
}

/// `play` or `pause`: the user's command to a player (`simulate user NAME play|pause`).
extension PlayerAction.Command: ExpressibleByArgument {
  public init?(argument: String) { self.init(rawValue: argument) }
  public var defaultValueDescription: String { rawValue }
  public static var allValueStrings: [String] { allCases.map(\.rawValue) }
  public static var allValueDescriptions: [String: String] { [:] }
  public static var defaultCompletionKind: CompletionKind { .list(allValueStrings) }
}
