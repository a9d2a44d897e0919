import AudioSession

extension BackendChoice {
  /// The backend this choice names.
  ///
  /// - Throws: ``BackendUnavailable`` for a backend this build does not have.
  func makeBackend() throws(BackendUnavailable) -> any AudioBackend {
    switch self {
    case .simulated: return InMemoryAudioBackend()
    // When the PulseAudio backend lands: `case .pulse: return PulseAudioBackend()`.
    case .pulse: throw BackendUnavailable(choice: self)
    }
  }

  /// The backend a daemon started by a live command uses: PulseAudio when its backend is built in
  /// and a server is reachable, the simulated one otherwise, with the reason in words.
  static func automatic() -> (BackendChoice, reason: String) {
    (.simulated, "the PulseAudio backend is not part of this build yet")
  }
}

/// The backend asked for is not in this build.
struct BackendUnavailable: Error, CustomStringConvertible {
  var choice: BackendChoice

  var description: String {
    "the \(choice.rawValue) backend is not part of this build of sessionctl yet; run the daemon "
      + "with '--backend simulated' (the simulated devices, call and switches of "
      + "'sessionctl simulate')"
  }
}
