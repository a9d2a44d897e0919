import AudioSessionSoak
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The soak's ear on synthetic signals (docs/soak.md "Judging by ear").
@Suite struct SoakEarTests {
  let ear = SoakEar()

  /// Half a second of sines at 44.1 kHz, each (frequency, amplitude), plus `noise` (a
  /// deterministic pseudo-random signal of that RMS, standing in for speech).
  func signal(_ tones: [(Double, Double)], noise: Double = 0) -> [Double] {
    var state: UInt64 = 12_345
    return (0..<22_050).map { index in
      let time = Double(index) / 44_100
      var value = tones.reduce(0) { $0 + $1.1 * sin(2 * Double.pi * $1.0 * time + 0.3) }
      if noise > 0 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let uniform = Double(state >> 11) / Double(1 << 53) * 2 - 1
        value += uniform * noise * 3.0.squareRoot()
      }
      return value
    }
  }

  @Test(
    "a tone at full level, ducked by -20 dB and absent is heard as 1, 0.1 and 0 beside other tones (docs/soak.md Judging by ear)"
  )
  func hear_tonesAtEachLevel_areClassified() {
    let programs = SoakProgram.cast.filter { $0.frequency != nil }
    let levels = [1.0, 0.1, 0, 1, 0.1, 0, 1]
    let tones = zip(programs, levels).map { (Double($0.0.frequency ?? 0), 0.1 * $0.1) }
    let heard = ear.hear(signal(tones), programs: programs)
    for (program, level) in zip(programs, levels) {
      #expect(
        heard[program.name]?.level == level,
        "\(program.name): \(String(describing: heard[program.name]))")
    }
  }

  @Test(
    "the Goertzel amplitude of a sine is its amplitude, within 1 % (docs/soak.md Judging by ear)",
    arguments: [440.0, 698, 1760])
  func amplitude_ofASine_isItsAmplitude(frequency: Double) {
    let measured = ear.amplitude(of: signal([(frequency, 0.1)]), frequency: frequency)
    #expect(abs(measured - 0.1) < 0.001)
  }

  @Test(
    "levels between the classes go to the nearest on a log scale: -9 dB is full, -12 dB and -28 dB are ducked, -32 dB is silent (docs/soak.md Judging by ear)"
  )
  func level_betweenClasses_isTheNearest() {
    func level(_ decibels: Double) -> Double {
      ear.level(ofAmplitude: 0.1 * pow(10, decibels / 20))
    }
    #expect(level(-9) == 1)
    #expect(level(-12) == 0.1)
    #expect(level(-28) == 0.1)
    #expect(level(-32) == 0)
  }

  @Test(
    "speech is heard by the energy the tones leave, and a tone is not taken for speech (docs/soak.md Judging by ear)"
  )
  func hear_speechAsResidual_isHeardAlone() {
    let programs = [SoakProgram.named("mpv"), SoakProgram.named("speech")].compactMap { $0 }
    let toneOnly = ear.hear(signal([(440, 0.1)]), programs: programs)
    #expect(toneOnly["speech"]?.level == 0)
    #expect(toneOnly["mpv"]?.level == 1)
    let withSpeech = ear.hear(signal([(440, 0.01)], noise: 0.02), programs: programs)
    #expect(withSpeech["speech"]?.level == 1)
    #expect(withSpeech["mpv"]?.level == 0.1)
  }

  @Test("raw s16le bytes become samples of full scale 1 (docs/soak.md Judging by ear)")
  func samples_fromS16LE_areScaled() {
    #expect(SoakEar.samples(fromS16LE: [0x00, 0x40, 0x00, 0xC0, 0xFF]) == [0.5, -0.5])
  }

  @Test(
    "a click in one part of the window (a program starting) is not taken for speech; speech throughout is (docs/soak.md Judging by ear)"
  )
  func hear_clickInOnePart_isNoSpeech() {
    let programs = [SoakProgram.named("web"), SoakProgram.named("speech")].compactMap { $0 }
    var clicked = signal([(1397, 0.1)])
    for index in 1000..<1400 { clicked[index] = index % 2 == 0 ? 0.5 : -0.5 }
    let heard = ear.hear(clicked, programs: programs)
    #expect(heard["speech"]?.level == 0)
    #expect(heard["web"]?.level == 1)
  }
}
