// `import MediaPlayer` on Linux: Now Playing information and remote commands, with Foundation
// re-exported as Apple's MediaPlayer does, and AVFAudio's audio session: on iOS a file whose only
// audio import is MediaPlayer sees `AVAudioSession` (docs/ios-compat.md "The products"). Linux
// only (Package.swift).
@_exported public import AVFAudio
@_exported public import Foundation
