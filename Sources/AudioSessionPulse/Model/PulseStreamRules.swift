package import AudioSession

/// How sessions appear on a PulseAudio server as streams, and which foreign streams are calls:
/// the `streams` section of `policies/pulse.json`.
///
/// A session's streams carry a `media.role` (the server's role policies act on it): the role of
/// its mode when ``modeRoles`` lists the mode, else the role of its category. A ducked session's
/// streams play at ``duckDecibels`` below their own volume. A stream of another client whose
/// role is in ``callRoles`` is a phone call. A session's streams are pinned to their device
/// unless ``movable`` (docs/apps.md "Our own streams never leak").
package struct PulseStreamRules: Sendable, Hashable {
  /// The role of every category (all categories are listed).
  package var categoryRoles: [Category: String]
  /// Roles that override the category's for some modes (`voiceChat` → `phone`).
  package var modeRoles: [Mode: String]
  /// How far ducking lowers a stream, in dB (negative).
  package var duckDecibels: Double
  /// Roles that make a foreign stream a phone call (`phone`).
  package var callRoles: Set<String>
  /// Whether the server and the user may move a session's streams (`movable`, default false).
  /// When false they are opened with `PA_STREAM_DONT_MOVE`: a device that goes kills them
  /// instead of moving them to another (they never play there), a route change reopens them on
  /// the new device, and a mixer cannot move them. When true a mixer's move is the user's
  /// choice of output for that session, and a device that goes moves them to the fallback until
  /// the backend corks them.
  package var movable: Bool

  package init(
    categoryRoles: [Category: String], modeRoles: [Mode: String], duckDecibels: Double,
    callRoles: Set<String>, movable: Bool = false
  ) {
    self.categoryRoles = categoryRoles
    self.modeRoles = modeRoles
    self.duckDecibels = duckDecibels
    self.callRoles = callRoles
    self.movable = movable
  }

  /// The `media.role` of a session's streams.
  package func role(for configuration: SessionConfiguration) -> String {
    if let role = modeRoles[configuration.mode] { return role }
    guard let role = categoryRoles[configuration.category] else {
      preconditionFailure("validated pulse.json has no role for \(configuration.category.name)")
    }
    return role
  }

  /// `volume` lowered by ``duckDecibels`` (PulseAudio's software volume arithmetic: the result
  /// of `pa_sw_volume_multiply` with the factor `pa_sw_volume_from_dB`).
  package func ducked(_ volume: PulseVolume) -> PulseVolume {
    volume.multiplied(by: duckFactor)
  }

  /// The ducking factor as a volume (`pa_sw_volume_from_dB(duckDecibels)`).
  package var duckFactor: PulseVolume {
    PulseVolume(decibels: duckDecibels)
  }
}
