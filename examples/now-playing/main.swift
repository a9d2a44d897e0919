// A player's lock-screen controls, written as on iOS (`import MediaPlayer`): its Now Playing
// information and remote-command handlers. On Linux they are an MPRIS player on the session bus,
// so `playerctl`, media keys and desktop shells drive it (docs/ios-compat.md "MediaPlayer over
// MPRIS").
//
//   now-playing-example [SECONDS]   # serves for SECONDS (default 30), then exits
//
// Each handler prints what it did, as the app would act on it.
import AVFoundation
import MediaPlayer

let seconds = CommandLine.arguments.dropFirst().first.flatMap(Double.init) ?? 30
// A line at a time, so that a log shows each handler as it runs.
setvbuf(stdout, nil, _IOLBF, 0)

let center = MPNowPlayingInfoCenter.default()
center.nowPlayingInfo = [
  MPMediaItemPropertyTitle: "Blue in Green",
  MPMediaItemPropertyArtist: "Miles Davis",
  MPMediaItemPropertyAlbumTitle: "Kind of Blue",
  MPMediaItemPropertyPlaybackDuration: 337.0,
  MPNowPlayingInfoPropertyElapsedPlaybackTime: 12.0,
  MPNowPlayingInfoPropertyPlaybackRate: 1.0,
]

/// Updates one key of the Now Playing information, as a player does when its state changes.
func update(_ key: String, _ value: Double) {
  var info = center.nowPlayingInfo ?? [:]
  info[key] = value
  center.nowPlayingInfo = info
}

let commands = MPRemoteCommandCenter.shared()
// One track: there is no next one.
commands.nextTrackCommand.isEnabled = false
_ = commands.pauseCommand.addTarget { _ in
  print("pause")
  update(MPNowPlayingInfoPropertyPlaybackRate, 0)
  return .success
}
_ = commands.playCommand.addTarget { _ in
  print("play")
  update(MPNowPlayingInfoPropertyPlaybackRate, 1)
  return .success
}
_ = commands.changePlaybackPositionCommand.addTarget { event in
  guard let event = event as? MPChangePlaybackPositionCommandEvent else { return .commandFailed }
  print("position \(event.positionTime)")
  update(MPNowPlayingInfoPropertyElapsedPlaybackTime, event.positionTime)
  return .success
}

// The remote commands' handlers run on the main queue, as on iOS: serve it until the time is up.
DispatchQueue.main.asyncAfter(deadline: .now() + seconds) { exit(0) }
dispatchMain()
