import AudioSession
import AudioSessionPulse
import AudioSessionPulseTestSupport
import AudioSessionSystem
import Testing

extension PulseAudioTests {
  /// PulseError: positive codes, libpulse's descriptions, pattern matching (docs/style.md §3.3.1).
  @Suite struct PulseErrorTests {
    // docs/pulseaudio.md §5 ("Connection terminated", "Connection refused")
    @Test("descriptions come from pa_strerror")
    func description_knownCodes_isLibpulseText() {
      #expect(PulseError.connectionTerminated.description == "Connection terminated")
      #expect(PulseError.connectionRefused.description == "Connection refused")
      #expect(PulseError.noSuchEntity.description == "No such entity")
    }

    // docs/style.md §3.3.1: normalise -PA_ERR_* at the wrapping site
    @Test("a negative libpulse return value is stored as the positive code")
    func initRawValue_negative_isNormalised() {
      let error = PulseError(rawValue: -PulseError.invalidArgument.rawValue)
      #expect(error == .invalidArgument)
      #expect(error.rawValue > 0)
    }

    // docs/style.md §3.3.1: `~=` for catch patterns
    @Test("a caught error matches its code and no other")
    func patternMatch_caughtError_matchesOwnCode() {
      let caught: any Error = PulseError.moduleInitFailed
      #expect(PulseError.moduleInitFailed ~= caught)
      #expect(!(PulseError.badState ~= caught))
      #expect(!(PulseError.badState ~= PulseWaitTimeout(message: "not a PulseError")))
    }
  }
}
