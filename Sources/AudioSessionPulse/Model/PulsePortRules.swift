/// How PulseAudio sinks and sources become AVAudioSession port types: the typed contents of
/// `policies/pulse.json` (docs/pulseaudio.md §4).
///
/// Rules are evaluated top-down and the first match wins; a device no rule matches gets the
/// explicit ``fallback`` for its direction. Built by ``load(directory:)``, which rejects unknown
/// keys and names, or by hand in tests.
package import AudioSession
import AudioSessionSystem

package struct PulsePortRules: Sendable, Hashable {
  /// The file name inside a policies directory (next to the files ``PolicyLoader`` reads).
  package static let fileName = PolicyLoader.pulseFileName

  package var rules: [Rule]
  /// The port types of a device no rule matched.
  package var fallback: Fallback

  package init(rules: [Rule], fallback: Fallback) {
    self.rules = rules
    self.fallback = fallback
  }

  /// The port type of a device no rule matched, per direction.
  package struct Fallback: Sendable, Hashable {
    package var output: PortType
    package var input: PortType

    package init(output: PortType, input: PortType) {
      self.output = output
      self.input = input
    }

    package subscript(direction: PortDirection) -> PortType {
      direction == .output ? output : input
    }
  }

  /// What a matching rule makes of a device.
  package enum Outcome: Sendable, Hashable, CustomStringConvertible {
    /// The device is a route with this port type.
    case port(PortType)
    /// The device is not a route (monitors, our own internal devices).
    case ignore
    /// The server's stand-in for a missing output (WirePlumber's `auto_null`, made when no sink
    /// exists): not a route of its own, it stands for the built-in speaker, which stays present
    /// when the stand-in goes because a real sink appeared (docs/pulseaudio-layer.md).
    case placeholder

    package var description: String {
      switch self {
      case .port(let type): type.name
      case .ignore: "ignore"
      case .placeholder: "placeholder"
      }
    }
  }

  /// One row: if any of its conditions matches, the device gets the outcome.
  package struct Rule: Sendable, Hashable {
    /// Unique among the rules (`bluetoothHFP`); reported with a match.
    package var name: String
    /// Where the row comes from (`docs/pulseaudio.md §4 row 3`).
    package var source: String
    /// Alternatives: the rule matches when at least one matches.
    package var when: [Condition]
    package var outcome: Outcome

    package init(name: String, source: String, when: [Condition], outcome: Outcome) {
      self.name = name
      self.source = source
      self.when = when
      self.outcome = outcome
    }
  }

  /// A conjunction: every field that is set must hold. String patterns are globs (`*` any run
  /// of characters, `?` one character); a list of patterns holds when any pattern matches.
  package struct Condition: Sendable, Hashable {
    /// `output` (sink) or `input` (source).
    package var direction: PortDirection?
    /// Whether the device is a monitor source.
    package var monitor: Bool?
    /// Property key → patterns; the property must exist and match one of them.
    package var properties: [String: [String]]
    /// Key patterns; each must match the key of at least one property (`raop.*`).
    package var propertyKeys: [String]
    /// The active port's type must be one of these.
    package var portTypes: Set<PulsePortType>?
    /// The active port's name must match one of these.
    package var portNames: [String]?
    /// The driver (`module-raop-sink.c`) must match one of these.
    package var drivers: [String]?
    /// The card's name (`raop_client.*`) must match one of these.
    package var cards: [String]?
    /// All these flags must be set.
    package var flags: PulseDeviceFlags

    package init(
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
