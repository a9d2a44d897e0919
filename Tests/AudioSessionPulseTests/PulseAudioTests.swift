import AudioSessionPulse
import Testing

/// The tests of `Sources/AudioSessionPulse` (the libpulse layer, private servers, device
/// mapping), nested here so that `swift test --filter PulseAudio` selects them, with
/// `SessionctlPulseTests`' examples on a real server (docs/pulseaudio-layer.md "Tests").
@Suite enum PulseAudioTests {}
