/// A scenario file: devices present at start, a policy profile, and the steps to replay
/// (docs/contract.md "Scenario files").
///
/// Built by ``init(yaml:file:)`` or ``load(contentsOfFile:)``, which check the file's shape
/// strictly; the steps themselves are parsed by the command-line tool, which knows the commands.
public import AudioSession

public struct Scenario: Sendable, Hashable {
  /// The keys a scenario file may have.
  public static let keys = ["name", "description", "devices", "profile", "steps"]

  /// The file as the user named it.
  public var file: String
  /// What the scenario shows, in a few words.
  public var name: String
  /// The story at more length, if the file gives one.
  public var description: String?
  /// Preset names present at start; nil: the device catalog's `defaultDevices`.
  public var devices: [Located<String>]?
  /// The policy profile the file asks for; nil: the table's default.
  public var profile: Located<String>?
  /// Never empty.
  public var steps: [ScenarioStep]

  public init(
    file: String, name: String, description: String? = nil, devices: [Located<String>]? = nil,
    profile: Located<String>? = nil, steps: [ScenarioStep]
  ) {
    self.file = file
    self.name = name
    self.description = description
    self.devices = devices
    self.profile = profile
    self.steps = steps
  }

  /// Checks the `devices:` list against a device catalog; every unknown preset is a problem.
  public func deviceProblems(catalog: DeviceCatalog) -> [ScenarioError] {
    (devices ?? []).compactMap { device in
      guard catalog.presets[device.value] == nil else { return nil }
      return ScenarioError(
        "unknown device preset '\(device.value)'; valid presets are: "
          + catalog.presetOrder.joined(separator: ", "), at: device.location)
    }
  }
}
