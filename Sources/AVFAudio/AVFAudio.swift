// `import AVFAudio` on Linux: Foundation and the client library (`AVAudioSession`,
// `AVAudioApplication`, the description classes, keys and notification names), re-exported as
// Apple's AVFAudio re-exports Foundation. Linux only (Package.swift); docs/ios-compat.md.
@_exported public import AudioSessionClient
@_exported public import Foundation
