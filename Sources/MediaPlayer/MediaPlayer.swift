// `import MediaPlayer` on Linux: Now Playing information and remote commands, with Foundation
// re-exported as Apple's MediaPlayer does. Linux only (Package.swift); docs/ios-compat.md.
@_exported public import Foundation
