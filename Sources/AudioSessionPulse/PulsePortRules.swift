/// How PulseAudio sinks and sources become AVAudioSession port types: the typed contents of
/// `policies/pulse.json` (docs/pulseaudio.md §4).
///
/// Rules are evaluated top-down and the first match wins; a device no rule matches gets the
/// explicit ``fallback`` for its direction. Built by ``load(directory:)``, which rejects unknown
/// keys and names, or by hand in tests.
public import AudioSession
import AudioSessionSystem

public struct PulsePortRules: Sendable, Hashable {
  /// The file name inside a policies directory (next to the files ``PolicyLoader`` reads).
  public static let fileName = PolicyLoader.pulseFileName

  public var rules: [Rule]
  /// The port types of a device no rule matched.
  public var fallback: Fallback

  public init(rules: [Rule], fallback: Fallback) {
    self.rules = rules
    self.fallback = fallback
  }

  /// The port type of a device no rule matched, per direction.
  public struct Fallback: Sendable, Hashable {
    public var output: PortType
    public var input: PortType

    public init(output: PortType, input: PortType) {
      self.output = output
      self.input = input
    }

    public subscript(direction: PortDirection) -> PortType {
      direction == .output ? output : input
    }
  }

  /// What a matching rule makes of a device.
  public enum Outcome: Sendable, Hashable, CustomStringConvertible {
    /// The device is a route with this port type.
    case port(PortType)
    /// The device is not a route (monitors, our own internal devices).
    case ignore
    /// The server's stand-in for a missing output (WirePlumber's `auto_null`, made when no sink
    /// exists): not a route of its own, it stands for the built-in speaker, which stays present
    /// when the stand-in goes because a real sink appeared (docs/pulseaudio-layer.md).
    case placeholder

    public var description: String {
      switch self {
      case .port(let type): type.name
      case .ignore: "ignore"
      case .placeholder: "placeholder"
      }
    }
  }

  /// One row: if any of its conditions matches, the device gets the outcome.
  public struct Rule: Sendable, Hashable {
    /// Unique among the rules (`bluetoothHFP`); reported with a match.
    public var name: String
    /// Where the row comes from (`docs/pulseaudio.md §4 row 3`).
    public var source: String
    /// Alternatives: the rule matches when at least one matches.
    public var when: [Condition]
    public var outcome: Outcome

    public init(name: String, source: String, when: [Condition], outcome: Outcome) {
      self.name = name
      self.source = source
      self.when = when
      self.outcome = outcome
    }
  }

  /// A conjunction: every field that is set must hold. String patterns are globs (`*` any run
  /// of characters, `?` one character); a list of patterns holds when any pattern matches.
  public struct Condition: Sendable, Hashable {
    /// `output` (sink) or `input` (source).
    public var direction: PortDirection?
    /// Whether the device is a monitor source.
    public var monitor: Bool?
    /// Property key → patterns; the property must exist and match one of them.
    public var properties: [String: [String]]
    /// Key patterns; each must match the key of at least one property (`raop.*`).
    public var propertyKeys: [String]
    /// The active port's type must be one of these.
    public var portTypes: Set<PulsePortType>?
    /// The active port's name must match one of these.
    public var portNames: [String]?
    /// The driver (`module-raop-sink.c`) must match one of these.
    public var drivers: [String]?
    /// The card's name (`raop_client.*`) must match one of these.
    public var cards: [String]?
    /// All these flags must be set.
    public var flags: PulseDeviceFlags

    public init(
      direction: PortDirection? = nil, monitor: Bool? = nil, properties: [String: [String]] = [:],
      propertyKeys: [String] = [], portTypes: Set<PulsePortType>? = nil,
      portNames: [String]? = nil, drivers: [String]? = nil, cards: [String]? = nil,
      flags: PulseDeviceFlags = []
    ) {
      self.direction = direction
      self.monitor = monitor
      self.properties = properties
      self.propertyKeys = propertyKeys
      self.portTypes = portTypes
      self.portNames = portNames
      self.drivers = drivers
      self.cards = cards
      self.flags = flags
    }
  }
}
