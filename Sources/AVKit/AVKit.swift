// `import AVKit` on Linux: AVFoundation (and so the audio session and Foundation), re-exported as
// Apple's AVKit re-exports it. AVKit's own classes (the player view controller, the route picker)
// are views, which nothing here can back, so none is declared. Linux only (Package.swift);
// docs/ios-compat.md.
@_exported public import AVFoundation
