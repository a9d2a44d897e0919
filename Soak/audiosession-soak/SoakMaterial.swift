import AudioSessionSoak
import Foundation

/// The files the real programs play (docs/soak.md "The cast"): each program's tone as a WAV
/// file (mpv, Chromium) and as raw samples (pacat), a page for Chromium, a text for espeak-ng.
struct SoakMaterial {
  let folder: String
  let rate = 44_100
  let amplitude: Double

  /// Writes everything into `folder`.
  init(folder: String, amplitude: Double) throws {
    self.folder = folder
    self.amplitude = amplitude
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    for program in SoakProgram.cast {
      guard let frequency = program.frequency else { continue }
      let samples = tone(frequency)
      try Data(samples).write(to: URL(fileURLWithPath: raw(program)))
      // Chromium's `<audio loop>` leaves a gap as it seeks back to the start, which the ear
      // would hear as speech (energy outside the tones): its file lasts longer than a history.
      let wave =
        program.kind == .chromium
        ? Array([[UInt8]](repeating: samples, count: 150).joined()) : samples
      try Data(wavHeader(count: wave.count) + wave).write(to: URL(fileURLWithPath: wav(program)))
      if program.kind == .chromium {
        try page(program).write(toFile: page(for: program), atomically: true, encoding: .utf8)
      }
    }
    let words = "the quick brown fox jumps over the lazy dog and runs on and on "
    try String(repeating: words, count: 400).write(
      toFile: text, atomically: true, encoding: .utf8)
  }

  func raw(_ program: SoakProgram) -> String { folder + "/\(program.name).raw" }
  func wav(_ program: SoakProgram) -> String { folder + "/\(program.name).wav" }
  func page(for program: SoakProgram) -> String { folder + "/\(program.name).html" }
  var text: String { folder + "/speech.txt" }

  /// One second of the tone, mono s16le: a whole number of periods, so that it loops without
  /// a click.
  func tone(_ frequency: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(rate * 2)
    for index in 0..<rate {
      let value = amplitude * sin(2 * Double.pi * Double(frequency) * Double(index) / Double(rate))
      let sample = UInt16(bitPattern: Int16((value * 32767).rounded()))
      bytes += [UInt8(sample & 0xFF), UInt8(sample >> 8)]
    }
    return bytes
  }

  func wavHeader(count: Int) -> [UInt8] {
    func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    func le16(_ value: Int) -> [UInt8] { (0..<2).map { UInt8((value >> (8 * $0)) & 0xFF) } }
    return Array("RIFF".utf8) + le32(36 + count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1)
      + le16(1) + le32(rate) + le32(rate * 2) + le16(2) + le16(16) + Array("data".utf8)
      + le32(count)
  }

  /// A page that loops the program's tone and says what plays (Media Session metadata).
  func page(_ program: SoakProgram) -> String {
    """
    <!doctype html>
    <html><head><title>soak \(program.name)</title></head><body>
    <audio id="tone" src="\(program.name).wav" loop autoplay></audio>
    <script>
    if ("mediaSession" in navigator) {
      navigator.mediaSession.metadata = new MediaMetadata({
        title: "soak tone \(program.frequency ?? 0) Hz", artist: "audiosession-soak"});
    }
    document.getElementById("tone").play();
    </script>
    </body></html>

    """
  }
}
