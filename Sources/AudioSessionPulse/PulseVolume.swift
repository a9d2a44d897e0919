import AudioSession
import CPulse

/// A software volume: ``normal`` is 100 %, ``muted`` is silence; values above normal amplify.
/// The corresponding C type is `pa_volume_t`.
public struct PulseVolume: RawRepresentable, Sendable, Hashable, Comparable,
  CustomStringConvertible
{
  public let rawValue: UInt32
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// 100 % (`PA_VOLUME_NORM`).
  public static let normal = PulseVolume(rawValue: cpulse_volume_norm)
  /// Silence (`PA_VOLUME_MUTED`).
  public static let muted = PulseVolume(rawValue: cpulse_volume_muted)

  /// The volume at `fraction` of normal on PulseAudio's cubic scale (0.5 is half of ``normal``'s
  /// raw value, which PulseAudio shows as 50 %); clamped to 0…4.
  public init(fraction: Double) {
    let clamped = min(max(fraction, 0), 4)
    self.init(rawValue: UInt32((clamped * Double(cpulse_volume_norm)).rounded()))
  }

  /// The share of ``normal`` (1.0 = 100 %).
  public var fraction: Double { Double(rawValue) / Double(cpulse_volume_norm) }

  public static func < (lhs: PulseVolume, rhs: PulseVolume) -> Bool { lhs.rawValue < rhs.rawValue }

  /// `100%`, as `pactl` shows it.
  public var description: String { "\(Int((fraction * 100).rounded()))%" }
}
