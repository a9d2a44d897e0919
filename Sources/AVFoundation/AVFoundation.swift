// `import AVFoundation` on Linux: AVFAudio's audio session (and Foundation), as Apple's
// AVFoundation re-exports AVFAudio. Linux only (Package.swift); docs/ios-compat.md.
@_exported public import AVFAudio
