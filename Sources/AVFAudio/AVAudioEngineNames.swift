public import Foundation

// Names of AVFAudio's audio engine that session code refers to without using the engine (there
// is no `AVAudioEngine` here, docs/ios-compat.md "Not there yet"): an observer of the engine's
// configuration change compiles, and is never called.

extension NSNotification.Name {
  /// `AVAudioEngineConfigurationChange`: posted on iOS when an `AVAudioEngine`'s I/O unit changes
  /// its configuration. The name only: nothing here posts it.
  public static let AVAudioEngineConfigurationChange = NSNotification.Name(
    "AVAudioEngineConfigurationChangeNotification")
}
