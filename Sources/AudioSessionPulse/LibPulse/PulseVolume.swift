import AudioSession
import CPulse

/// A software volume: ``normal`` is 100 %, ``muted`` is silence; values above normal amplify.
/// The corresponding C type is `pa_volume_t`.
package struct PulseVolume: RawRepresentable, Sendable, Hashable, Comparable,
  CustomStringConvertible
{
  package let rawValue: UInt32
  package init(rawValue: UInt32) { self.rawValue = rawValue }

  /// 100 % (`PA_VOLUME_NORM`).
  package static let normal = PulseVolume(rawValue: cpulse_volume_norm)
  /// Silence (`PA_VOLUME_MUTED`).
  package static let muted = PulseVolume(rawValue: cpulse_volume_muted)

  /// The volume at `fraction` of normal on PulseAudio's cubic scale (0.5 is half of ``normal``'s
  /// raw value, which PulseAudio shows as 50 %); clamped to 0…4.
  package init(fraction: Double) {
    let clamped = min(max(fraction, 0), 4)
    self.init(rawValue: UInt32((clamped * Double(cpulse_volume_norm)).rounded()))
  }

  /// The share of ``normal`` (1.0 = 100 %).
  package var fraction: Double { Double(rawValue) / Double(cpulse_volume_norm) }

  /// The software volume `decibels` above or below ``normal``. The corresponding C function is
  /// `pa_sw_volume_from_dB`.
  package init(decibels: Double) {
    self.init(rawValue: pa_sw_volume_from_dB(decibels))
  }

  /// This volume scaled by `factor`, as the server combines two software volumes. The
  /// corresponding C function is `pa_sw_volume_multiply`.
  package func multiplied(by factor: PulseVolume) -> PulseVolume {
    PulseVolume(rawValue: pa_sw_volume_multiply(rawValue, factor.rawValue))
  }

  package static func < (lhs: PulseVolume, rhs: PulseVolume) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `100%`, as `pactl` shows it.
  package var description: String { "\(Int((fraction * 100).rounded()))%" }
}
