import AudioSessionPulse
import Testing

/// The tests of `Sources/AudioSessionPulse` (the libpulse layer, private servers, device
/// mapping), nested here so that `swift test --filter PulseAudio` selects exactly them.
@Suite enum PulseAudioTests {}
