// A media player's audio session, written as it would be against AVAudioSession on iOS.
//
//   swift run audio-session-example            # against the daemon (sessionctl daemon)
//   swift run audio-session-example --embedded # against an in-process engine, with a call
//
// It configures playback for movies, activates, "plays", and handles interruptions (pause on
// began, resume on ended with shouldResume) and route changes (pause when headphones go away)
// through NotificationCenter, exactly as an iOS handler would, and prints the typed events too.
import AudioSession
import AudioSessionClient
import AudioSessionHost
import Foundation

let embedded = CommandLine.arguments.contains("--embedded")
let system = embedded ? try EmbeddedAudioSystem() : nil
let connection: AVAudioSession.Connection = system.map { .embedded($0) } ?? .daemon()

let session: AVAudioSession
do {
  session = try AVAudioSession(name: "swift-player", connection: connection)
} catch {
  print("cannot open the session: \(error)")
  print("start the daemon first ('sessionctl daemon &'), or run with --embedded")
  exit(1)
}

final class Player: @unchecked Sendable {
  var playing = false {
    didSet { print("player: \(playing ? "playing" : "paused")") }
  }
}
let player = Player()

// The iOS interruption handler, as written on iOS.
let center = NotificationCenter.default
let interruptions = center.addObserver(
  forName: AVAudioSession.interruptionNotification, object: session, queue: nil
) { note in
  guard let info = note.userInfo,
    let typeValue = info[AVAudioSessionInterruptionTypeKey] as? UInt,
    let type = AVAudioSession.InterruptionType(rawValue: typeValue)
  else { return }
  switch type {
  case .began:
    player.playing = false
  case .ended:
    guard let optionsValue = info[AVAudioSessionInterruptionOptionKey] as? UInt else { return }
    if AVAudioSession.InterruptionOptions(rawValue: optionsValue).contains(.shouldResume) {
      try? session.setActive(true)
      try? session.setPlaying(true)
      player.playing = true
    }
  }
}
let routes = center.addObserver(
  forName: AVAudioSession.routeChangeNotification, object: session, queue: nil
) { note in
  guard let reasonValue = note.userInfo?[AVAudioSessionRouteChangeReasonKey] as? UInt,
    let reason = AVAudioSession.RouteChangeReason(rawValue: reasonValue)
  else { return }
  if reason == .oldDeviceUnavailable,
    let previous = note.userInfo?[AVAudioSessionRouteChangePreviousRouteKey]
      as? AVAudioSessionRouteDescription,
    previous.outputs.contains(where: { $0.portType == .headphones })
  {
    player.playing = false
  }
}

// The typed events, for everything (including what iOS does silently: duck, mute, pause).
let events = session.events
let printer = Task {
  for await event in events { print("event: \(TranscriptText.event(event))") }
}

try session.setCategory(.playback, mode: .moviePlayback)
try session.setActive(true)
try session.setPlaying(true)
player.playing = true
print("route: \(TranscriptText.route(session.currentRoute.route))")

if let system {
  // Show the handlers at work: headphones come and go, and a call interrupts.
  try system.simulate(.plug(preset: "headphones"))
  try system.simulate(.unplug("headphones"))
  try system.simulate(.call(active: true))
  try system.simulate(.call(active: false))
  try await Task.sleep(for: .milliseconds(200))
  print("active: \(session.isActive), route: \(TranscriptText.route(session.currentRoute.route))")
  session.invalidate()
} else {
  print("playing; try 'sessionctl simulate call begin' in another terminal (Ctrl-C stops)")
  while true { try await Task.sleep(for: .seconds(3600)) }
}
withExtendedLifetime((interruptions, routes, printer)) {}
