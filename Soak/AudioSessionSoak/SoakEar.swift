#if canImport(Glibc)
  import Glibc
#endif

/// How the soak judges by ear (docs/soak.md "Judging by ear"): a window of the speaker's
/// monitor, each program's tone measured with a Goertzel filter, and the rest of the signal's
/// energy, which is the speech.
public struct SoakEar: Sendable {
  /// The recording's rate (parec's `--rate`), mono.
  public var sampleRate: Double
  /// The amplitude every tone is written at, as a fraction of full scale.
  public var toneAmplitude: Double
  /// The level a ducked program is predicted at (`pulse.json`'s `streams.duckDecibels` as an
  /// amplitude: 0.1 for -20 dB).
  public var duckLevel: Double
  /// The RMS, as a fraction of full scale, above which what is left once the tones are taken
  /// out counts as speech heard.
  public var speechThreshold: Double

  public init(
    sampleRate: Double = 44_100, toneAmplitude: Double = 0.1, duckLevel: Double = 0.1,
    speechThreshold: Double = 0.004
  ) {
    self.sampleRate = sampleRate
    self.toneAmplitude = toneAmplitude
    self.duckLevel = duckLevel
    self.speechThreshold = speechThreshold
  }

  /// The amplitude (a fraction of full scale) of the sine at `frequency` in `samples`
  /// (full scale 1): a Goertzel filter over the Hann-windowed samples, whose magnitude for a
  /// sine of amplitude A is A times half the window's sum.
  public func amplitude(of samples: [Double], frequency: Double) -> Double {
    guard samples.count > 1 else { return 0 }
    let count = Double(samples.count)
    let coefficient = 2 * cos(2 * Double.pi * frequency / sampleRate)
    var (previous, beforePrevious, windowSum) = (0.0, 0.0, 0.0)
    for (index, sample) in samples.enumerated() {
      let weight = 0.5 - 0.5 * cos(2 * Double.pi * Double(index) / (count - 1))
      windowSum += weight
      let value = sample * weight + coefficient * previous - beforePrevious
      beforePrevious = previous
      previous = value
    }
    let power =
      previous * previous + beforePrevious * beforePrevious - coefficient * previous
      * beforePrevious
    return 2 * max(power, 0).squareRoot() / windowSum
  }

  /// The level a measured tone amplitude is heard at: 0, the duck level or 1, whichever is
  /// nearest on a logarithmic scale, with 0 below a third of the duck level (-30 dB of the tone
  /// when ducking is -20 dB) and 1 from the geometric mean of the duck level and 1 (-10 dB).
  public func level(ofAmplitude amplitude: Double) -> Double {
    let ratio = amplitude / toneAmplitude
    if ratio < duckLevel * 0.3 { return 0 }
    if ratio < (duckLevel).squareRoot() { return duckLevel }
    return 1
  }

  /// The level a predicted value is judged against: the nearest of 0, the duck level and 1.
  public func expected(_ predicted: Double) -> Double {
    level(ofAmplitude: predicted * toneAmplitude)
  }

  /// The RMS of what is left of `samples` once the tones of `amplitudes` are taken out: the
  /// speech, when any is heard.
  public func residual(of samples: [Double], toneAmplitudes amplitudes: [Double]) -> Double {
    guard !samples.isEmpty else { return 0 }
    let power = samples.reduce(0) { $0 + $1 * $1 } / Double(samples.count)
    let tones = amplitudes.reduce(0) { $0 + $1 * $1 / 2 }
    return max(power - tones, 0).squareRoot()
  }

  /// The median of the tone's amplitudes in `parts` equal parts of `samples`: a program's tone
  /// is steady, while speech reaches any one frequency only now and then (a harmonic of its
  /// voice passing by), and a program starved of the processor leaves a gap now and then; the
  /// median part is the tone's own.
  public func steadyAmplitude(of samples: [Double], frequency: Double, parts: Int = 5) -> Double {
    let size = samples.count / max(parts, 1)
    guard size > 1 else { return amplitude(of: samples, frequency: frequency) }
    let amplitudes = (0..<parts).map { part in
      amplitude(of: Array(samples[part * size..<(part + 1) * size]), frequency: frequency)
    }.sorted()
    return amplitudes[amplitudes.count / 2]
  }

  /// What one window says of each program: for a program with a tone, its level (0, ducked,
  /// 1) from its steady amplitude; for speech, 1 when the residual of the median of five parts
  /// is above ``speechThreshold``, else 0.
  public func hear(_ samples: [Double], programs: [SoakProgram]) -> [String: Heard] {
    var heard: [String: Heard] = [:]
    var amplitudes: [Double] = []
    for program in programs {
      guard let frequency = program.frequency else { continue }
      amplitudes.append(amplitude(of: samples, frequency: Double(frequency)))
      let value = steadyAmplitude(of: samples, frequency: Double(frequency))
      heard[program.name] = Heard(level: level(ofAmplitude: value), measure: value / toneAmplitude)
    }
    // The median part's residual: speech goes on, while a program's start or a relink leaves
    // a click in one part, which is no speech.
    let size = samples.count / 5
    let frequencies = programs.compactMap(\.frequency).map(Double.init)
    let rest =
      size > 1
      ? (0..<5).map { part in
        let slice = Array(samples[part * size..<(part + 1) * size])
        return residual(
          of: slice, toneAmplitudes: frequencies.map { amplitude(of: slice, frequency: $0) })
      }.sorted()[2]
      : residual(of: samples, toneAmplitudes: amplitudes)
    for program in programs where program.frequency == nil {
      heard[program.name] = Heard(level: rest > speechThreshold ? 1 : 0, measure: rest)
    }
    return heard
  }

  /// Samples of full scale 1 from raw signed 16-bit little-endian bytes (parec's `s16le`).
  public static func samples(fromS16LE bytes: [UInt8]) -> [Double] {
    stride(from: 0, to: bytes.count - 1, by: 2).map {
      Double(Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)) / 32768
    }
  }

  /// What the ear made of one program.
  public struct Heard: Sendable, Hashable {
    /// 0, the duck level or 1 for a tone; 0 or 1 for speech.
    public var level: Double
    /// The tone's amplitude relative to the one written, or the speech's residual RMS.
    public var measure: Double

    public init(level: Double, measure: Double) {
      self.level = level
      self.measure = measure
    }
  }
}
