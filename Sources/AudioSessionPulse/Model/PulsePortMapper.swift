/// Maps a device snapshot to an AVAudioSession port type with the rules of `policies/pulse.json`
/// (docs/pulseaudio.md §4). Pure: no I/O, no state, total over every snapshot (missing or odd
/// properties simply fail to match and end at the fallback).
package import AudioSession
import AudioSessionSystem

package enum PulsePortMapper {
  /// The outcome for a device, and which rule decided it.
  package struct Match: Sendable, Hashable, CustomStringConvertible {
    /// The deciding rule's name; nil when no rule matched and the fallback applied.
    package var rule: String?
    package var outcome: PulsePortRules.Outcome

    package init(rule: String?, outcome: PulsePortRules.Outcome) {
      self.rule = rule
      self.outcome = outcome
    }

    /// The port type, or nil when the device is ignored; a placeholder stands for the
    /// built-in speaker.
    package var portType: PortType? {
      switch outcome {
      case .port(let type): type
      case .placeholder: .builtInSpeaker
      case .ignore: nil
      }
    }

    package var description: String { "\(outcome) (\(rule ?? "fallback"))" }
  }

  /// Evaluates the rules top-down; the first rule with a matching condition wins.
  package static func match(_ device: PulseDeviceSnapshot, rules: PulsePortRules) -> Match {
    for rule in rules.rules where rule.when.contains(where: { holds($0, for: device) }) {
      return Match(rule: rule.name, outcome: rule.outcome)
    }
    return Match(rule: nil, outcome: .port(rules.fallback[device.direction]))
  }

  /// The device's port type, or nil when it is not a route (a monitor).
  package static func portType(
    for device: PulseDeviceSnapshot, rules: PulsePortRules
  ) -> PortType? {
    match(device, rules: rules).portType
  }

  /// The device as a route port: named by its description, identified by its sink or source
  /// name plus the active port's name (so switching a card's port changes the UID).
  package static func port(for device: PulseDeviceSnapshot, rules: PulsePortRules) -> DevicePort? {
    guard let type = portType(for: device, rules: rules) else { return nil }
    let uid = device.activePortName.map { "\(device.name):\($0)" } ?? device.name
    let name = device.deviceDescription.isEmpty ? device.name : device.deviceDescription
    return DevicePort(type: type, direction: device.direction, name: name, uid: uid)
  }

  static func holds(_ condition: PulsePortRules.Condition, for device: PulseDeviceSnapshot) -> Bool
  {
    if let direction = condition.direction, direction != device.direction { return false }
    if let monitor = condition.monitor, monitor != device.isMonitor { return false }
    for (key, patterns) in condition.properties {
      guard let value = device.properties[key], matchesAny(patterns, value) else { return false }
    }
    for pattern in condition.propertyKeys
    where !device.properties.keys.contains(where: { glob(pattern, matches: $0) }) {
      return false
    }
    let port = device.activePort
    if let types = condition.portTypes {
      guard let port, types.contains(port.type) else { return false }
    }
    if let names = condition.portNames {
      guard let port, matchesAny(names, port.name) else { return false }
    }
    if let drivers = condition.drivers, !matchesAny(drivers, device.driver) { return false }
    if let cards = condition.cards {
      guard let card = device.cardName, matchesAny(cards, card) else { return false }
    }
    return device.flags.isSuperset(of: condition.flags)
  }

  private static func matchesAny(_ patterns: [String], _ text: String) -> Bool {
    patterns.contains { glob($0, matches: text) }
  }

  /// Glob matching as `policies/pulse.json` patterns use it: `*` matches any run of characters
  /// (also none), `?` exactly one; everything else matches itself.
  package static func glob(_ pattern: String, matches text: String) -> Bool {
    // Most patterns are literal, or a literal and a trailing `*`: no scalar arrays needed.
    let scalars = pattern.unicodeScalars
    let isWild = { (scalar: Unicode.Scalar) in scalar == "*" || scalar == "?" }
    if !scalars.contains(where: isWild) { return scalars.elementsEqual(text.unicodeScalars) }
    if scalars.last == "*", !scalars.dropLast().contains(where: isWild) {
      return text.unicodeScalars.starts(with: scalars.dropLast())
    }
    let pattern = Array(pattern.unicodeScalars)
    let text = Array(text.unicodeScalars)
    var p = 0
    var t = 0
    var star: Int?
    var resume = 0
    while t < text.count {
      if p < pattern.count, pattern[p] == "*" {
        star = p
        resume = t
        p += 1
      } else if p < pattern.count, pattern[p] == "?" || pattern[p] == text[t] {
        p += 1
        t += 1
      } else if let star {
        p = star + 1
        resume += 1
        t = resume
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
