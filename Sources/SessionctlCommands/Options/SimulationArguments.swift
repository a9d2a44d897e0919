import ArgumentParser

/// `on` or `off`, for the simulated switches.
enum OnOff: String, CaseIterable, ExpressibleByArgument, Sendable {
  case on, off

  var isOn: Bool { self == .on }
}

/// `ring`, `begin` or `end`, for the simulated phone call.
enum CallPhase: String, CaseIterable, ExpressibleByArgument, Sendable {
  case ring, begin, end
}

/// `begin` or `end`, for Siri and for a system alarm.
enum SiriPhase: String, CaseIterable, ExpressibleByArgument, Sendable {
  case begin, end
}

/// The backends `scenario run` can replay on.
enum BackendChoice: String, CaseIterable, ExpressibleByArgument, Sendable {
  case simulated, pulse
}
