// swift-tools-version:6.1
import PackageDescription

let upcoming: [SwiftSetting] = [
  .enableUpcomingFeature("ExistentialAny"),
  .enableUpcomingFeature("MemberImportVisibility"),
  .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
  name: "AudioSession",
  platforms: [.macOS(.v14)],
  products: [
    .library(name: "AudioSessionClient", targets: ["AudioSessionClient"]),
    .library(name: "AudioSessionHost", targets: ["AudioSessionHost"]),
    .library(name: "AudioSessionPulse", targets: ["AudioSessionPulse"]),
    .library(name: "AudioSessionScenario", targets: ["AudioSessionScenario"]),
    .library(name: "AudioSessionDaemon", targets: ["AudioSessionDaemon"]),
    .executable(name: "sessionctl", targets: ["sessionctl"]),
    .executable(name: "audiosessiond", targets: ["audiosessiond"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
    .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
    .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    // The C layer, one folder (Sources/C), one target per library (docs/modules.md).
    .systemLibrary(name: "CPulse", path: "Sources/C/CPulse", providers: [.apt(["libpulse-dev"])]),
    .systemLibrary(name: "CYAML", path: "Sources/C/CYAML", providers: [.apt(["libyaml-dev"])]),
    .systemLibrary(
      name: "CSDBus", path: "Sources/C/CSDBus", providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(
      name: "CSDNotify", path: "Sources/C/CSDNotify", providers: [.apt(["libsystemd-dev"])]),
    .systemLibrary(name: "CSwiftRuntimeHooks", path: "Sources/C/CSwiftRuntimeHooks"),
    .target(name: "AudioSession", swiftSettings: upcoming),
    .target(
      name: "AudioSessionSystem",
      swiftSettings: upcoming
    ),
    .target(
      name: "AudioSessionWire",
      dependencies: ["AudioSession", "AudioSessionSystem"],
      swiftSettings: upcoming
    ),
    .target(
      name: "AudioSessionClient",
      dependencies: ["AudioSession", "AudioSessionWire", "AudioSessionSystem"],
      swiftSettings: upcoming
    ),
    // The policy tables as the package's resources, for EmbeddedAudioSystem() in a package that
    // depends on this one (`policies` here links to the top-level policies/; `.process` copies
    // the files themselves).
    .target(
      name: "AudioSessionPolicies", resources: [.process("policies")],
      swiftSettings: upcoming),
    // Everything the daemon decides, as one value (docs/arbiter.md).
    .target(
      name: "AudioSessionArbiter",
      dependencies: ["AudioSession", "AudioSessionWire"],
      swiftSettings: upcoming
    ),
    .target(
      name: "AudioSessionHost",
      dependencies: [
        "AudioSession",
        "AudioSessionArbiter",
        "AudioSessionWire",
        "AudioSessionSystem",
        "AudioSessionPolicies",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: upcoming
    ),
    .target(
      name: "AudioSessionScenario",
      dependencies: [
        "AudioSession",
        "AudioSessionArbiter",
        "CYAML",
      ],
      swiftSettings: upcoming
    ),
    .target(
      name: "AudioSessionPulse",
      dependencies: [
        "AudioSession",
        "AudioSessionSystem",
        "CPulse",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: upcoming
    ),
    // The app's own MPRIS player as MediaPlayer sees it, with no C module under it
    // (docs/ios-compat.md "The products").
    .target(
      name: "AudioSessionMPRISPlayer",
      dependencies: ["AudioSession", "AudioSessionSystem"],
      swiftSettings: upcoming
    ),
    .target(
      name: "AudioSessionMPRIS",
      dependencies: [
        "AudioSession",
        "AudioSessionMPRISPlayer",
        "AudioSessionSystem",
        "CSDBus",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: upcoming
    ),
    .target(
      name: "AudioSessionDaemon",
      dependencies: [
        "AudioSession",
        "AudioSessionWire",
        "AudioSessionSystem",
        "AudioSessionHost",
        "CSDNotify",
        "CSwiftRuntimeHooks",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: upcoming
    ),
    .target(
      name: "SessionctlCommands",
      dependencies: [
        "AudioSession",
        "AudioSessionWire",
        "AudioSessionSystem",
        "AudioSessionHost",
        "AudioSessionScenario",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: upcoming
    ),
    .target(
      name: "SessionctlPulse",
      dependencies: [
        "AudioSession",
        "AudioSessionHost",
        "AudioSessionPulse",
        "AudioSessionMPRIS",
        "SessionctlCommands",
        .product(name: "Logging", package: "swift-log"),
      ],
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "sessionctl",
      dependencies: ["SessionctlCommands"],
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "audiosessiond",
      dependencies: [
        "AudioSession",
        "AudioSessionWire",
        "AudioSessionSystem",
        "AudioSessionHost",
        "AudioSessionDaemon",
        "SessionctlCommands",
        "SessionctlPulse",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: upcoming
    ),
    // What every benchmark ends with: its goals as a table, the summary line, its time limit.
    .target(name: "BenchGoals", path: "Benchmarks/BenchGoals", swiftSettings: upcoming),
    .executableTarget(
      name: "engine-bench",
      dependencies: ["AudioSession", "AudioSessionArbiter", "BenchGoals"],
      path: "Benchmarks/engine-bench",
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "scenario-bench",
      dependencies: [
        "AudioSession", "AudioSessionScenario", "AudioSessionSystem", "SessionctlCommands",
        "BenchGoals",
      ],
      path: "Benchmarks/scenario-bench",
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "pulse-bench",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionPulse", "AudioSessionHost",
        "AudioSessionArbiter", "AudioSessionWire", "AudioSessionMPRIS", "BenchGoals",
      ],
      path: "Benchmarks/pulse-bench",
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "daemon-bench",
      dependencies: [
        "AudioSession",
        "AudioSessionWire",
        "AudioSessionSystem",
        "AudioSessionHost",
        "AudioSessionPulse",
        "AudioSessionDaemon",
        "BenchGoals",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      path: "Benchmarks/daemon-bench",
      swiftSettings: upcoming
    ),
    // `make soak` (docs/soak.md): random desktop histories replayed on the simulated backend
    // and acted out by real programs on private servers, judged by ear. The pure parts (the
    // history generator, the ear, the comparison) are a library the tests check.
    .target(
      name: "AudioSessionSoak",
      dependencies: ["AudioSession"],
      path: "Soak/AudioSessionSoak",
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "audiosession-soak",
      dependencies: [
        "AudioSession", "AudioSessionSoak", "AudioSessionSystem", "AudioSessionPulse",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Soak/audiosession-soak",
      swiftSettings: upcoming
    ),
    // The fuzzing targets, one entry point per reader of outside input, and the program
    // libFuzzer drives them through (`make fuzz`, docs/fuzzing.md).
    .target(
      name: "AudioSessionFuzzTargets",
      dependencies: [
        "AudioSession",
        "AudioSessionSystem",
        "AudioSessionWire",
        "AudioSessionHost",
        "AudioSessionScenario",
        "AudioSessionPulse",
        "AudioSessionDaemon",
        "SessionctlCommands",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
      ],
      path: "Fuzz/Targets",
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "audiosession-fuzz",
      dependencies: ["AudioSessionFuzzTargets", "AudioSessionSystem"],
      path: "Fuzz/Driver",
      swiftSettings: upcoming
    ),
    .executableTarget(
      name: "audio-session-example",
      dependencies: ["AudioSession", "AudioSessionClient", "AudioSessionHost"],
      path: "examples/swift-player",
      swiftSettings: upcoming
    ),
    // The tests: one target per module they exercise, <Module>Tests in Tests/<Module>Tests,
    // depending on that module, the ones under it and the test support; the few that need one
    // module more are named in docs/style.md §3.8 with the reason.
    // The helpers the test targets share, one support target per layer, so that no suite links
    // more than it needs.
    .target(
      name: "AudioSessionTestSupport",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      path: "Tests/AudioSessionTestSupport", swiftSettings: upcoming),
    .target(
      name: "AudioSessionHostTestSupport", dependencies: ["AudioSessionHost"],
      path: "Tests/AudioSessionHostTestSupport", swiftSettings: upcoming),
    .target(
      name: "AudioSessionArbiterTestSupport",
      dependencies: [
        "AudioSession", "AudioSessionArbiter", "AudioSessionTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      path: "Tests/AudioSessionArbiterTestSupport", swiftSettings: upcoming),
    .target(
      name: "AudioSessionDaemonTestSupport",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionClient",
        "AudioSessionHost", "AudioSessionDaemon", "AudioSessionTestSupport",
      ],
      path: "Tests/AudioSessionDaemonTestSupport", swiftSettings: upcoming),
    .target(
      name: "AudioSessionPulseTestSupport",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionArbiter",
        "AudioSessionPulse", "AudioSessionTestSupport",
      ],
      path: "Tests/AudioSessionPulseTestSupport", swiftSettings: upcoming),
    .testTarget(
      name: "AudioSessionTests",
      dependencies: [
        "AudioSession", "AudioSessionTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionSystemTests",
      dependencies: ["AudioSessionSystem", "AudioSessionTestSupport"],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionWireTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionClientTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionClient",
        "AudioSessionHost", "AudioSessionTestSupport", "AudioSessionDaemonTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionArbiterTests",
      dependencies: [
        "AudioSession", "AudioSessionWire", "AudioSessionArbiter", "AudioSessionTestSupport",
        "AudioSessionArbiterTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionHostTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionArbiter",
        "AudioSessionPolicies", "AudioSessionHost", "AudioSessionTestSupport",
        "AudioSessionHostTestSupport",
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionScenarioTests",
      dependencies: [
        "AudioSession", "AudioSessionArbiter", "AudioSessionScenario", "AudioSessionTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionPulseTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionArbiter", "AudioSessionPulse",
        "AudioSessionTestSupport", "AudioSessionPulseTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionDaemonTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionHost",
        "AudioSessionDaemon", "AudioSessionTestSupport", "AudioSessionHostTestSupport",
        "AudioSessionDaemonTestSupport", "sessionctl", "audiosessiond",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "InMemoryLogging", package: "swift-log"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "SessionctlCommandsTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionArbiter",
        "AudioSessionHost", "AudioSessionScenario", "SessionctlCommands",
        "AudioSessionTestSupport", "AudioSessionArbiterTestSupport",
        "AudioSessionDaemonTestSupport", "sessionctl", "audiosessiond",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "SessionctlPulseTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionArbiter",
        "AudioSessionScenario", "AudioSessionPulse", "SessionctlCommands", "SessionctlPulse",
        "AudioSessionTestSupport", "AudioSessionPulseTestSupport", "sessionctl", "audiosessiond",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: upcoming
    ),
    // The two programs, run as a person or systemd runs them, on private servers.
    .testTarget(
      name: "SessionctlTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionClient",
        "AudioSessionHost", "AudioSessionTestSupport", "AudioSessionDaemonTestSupport",
        "sessionctl", "audiosessiond",
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudiosessiondTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionClient",
        "AudioSessionHost", "AudioSessionPulse", "AudioSessionMPRIS", "AudioSessionDaemon",
        "AudioSessionTestSupport", "AudioSessionPulseTestSupport", "sessionctl", "audiosessiond",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "InMemoryLogging", package: "swift-log"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionSoakTests",
      dependencies: [
        "AudioSession", "AudioSessionScenario", "AudioSessionSoak", "SessionctlCommands",
        "AudioSessionTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ],
      swiftSettings: upcoming
    ),
    .testTarget(
      name: "AudioSessionFuzzTargetsTests",
      dependencies: ["AudioSession", "AudioSessionFuzzTargets", "AudioSessionTestSupport"],
      swiftSettings: upcoming
    ),
    // What holds for the whole checkout: the docs' references and command blocks, the API
    // coverage table, `make install`, the daemon modules' source scan (docs/style.md §3.8).
    .testTarget(
      name: "RepositoryTests",
      dependencies: [
        "AudioSession", "AudioSessionSystem", "AudioSessionWire", "AudioSessionTestSupport",
        "sessionctl", "audiosessiond",
      ],
      swiftSettings: upcoming
    ),
  ]
)

// Linux only: the modules an iOS file imports (AVFAudio, AVFoundation, AVKit, MediaPlayer), so
// that it compiles as it is (docs/ios-compat.md).
// On Apple platforms these names are Apple's own frameworks, and these products do not exist.
#if os(Linux)
  package.products += [
    .library(name: "AVFAudio", targets: ["AVFAudio"]),
    .library(name: "AVFoundation", targets: ["AVFoundation"]),
    .library(name: "MediaPlayer", targets: ["MediaPlayer"]),
    .library(name: "AVKit", targets: ["AVKit"]),
  ]
  package.targets += [
    .target(name: "AVFAudio", dependencies: ["AudioSessionClient"], swiftSettings: upcoming),
    .target(name: "AVFoundation", dependencies: ["AVFAudio"], swiftSettings: upcoming),
    // AVKit re-exports AVFoundation, as Apple's does; it holds nothing of its own (no player
    // view controller or route picker can be backed here).
    .target(name: "AVKit", dependencies: ["AVFoundation"], swiftSettings: upcoming),
    .target(
      name: "MediaPlayer",
      dependencies: [
        // AudioSessionMPRIS is linked, not imported: MediaPlayer makes its player through
        // AudioSessionMPRISPlayer's makeMPRISPlayerService (docs/ios-compat.md "The products").
        "AudioSession", "AudioSessionClient", "AudioSessionMPRIS", "AudioSessionMPRISPlayer",
        "AudioSessionSystem", "AVFAudio",
      ],
      swiftSettings: upcoming),
    // A player's Now Playing information and remote commands, written as on iOS, served over
    // MPRIS (docs/ios-compat.md "MediaPlayer over MPRIS").
    .executableTarget(
      name: "now-playing-example", dependencies: ["AVFoundation", "MediaPlayer"],
      path: "examples/now-playing", swiftSettings: [.swiftLanguageMode(.v5)]),
    // iOS-style app code, written as on iOS (Swift 5 mode, `import AVFoundation`) and compiled
    // unchanged; Tests/PortedIOSAppsTests drives it.
    .target(
      name: "PortedIOSApps", dependencies: ["AVFAudio", "AVFoundation", "AVKit", "MediaPlayer"],
      path: "Tests/PortedIOSApps",
      exclude: ["README.md"], swiftSettings: [.swiftLanguageMode(.v5)]),
  ]
  // The compatibility products' tests: the ported apps driven in-process and against the
  // daemon, and MediaPlayer used from outside SwiftPM (docs/ios-compat.md).
  package.targets += [
    .testTarget(
      name: "PortedIOSAppsTests",
      dependencies: [
        "PortedIOSApps", "AVFAudio", "AVFoundation", "MediaPlayer", "AudioSession",
        "AudioSessionSystem", "AudioSessionWire", "AudioSessionClient", "AudioSessionHost",
        "SessionctlCommands", "AudioSessionTestSupport", "AudioSessionDaemonTestSupport",
      ],
      swiftSettings: upcoming),
    .testTarget(
      name: "MediaPlayerTests",
      dependencies: [
        "MediaPlayer", "AudioSessionMPRIS", "AudioSessionMPRISPlayer", "AudioSessionTestSupport",
      ],
      swiftSettings: upcoming),
  ]
#endif
