import AudioSessionTestSupport
import Foundation
import Testing

@testable import AudioSession

/// The loader's strictness (docs/style.md §3.5, docs/contract.md "Policies"): each kind of
/// mistake is reported with its file and key path, and every problem is reported at once.
@Suite struct PolicyLoaderTests {
  /// One edit to a copy of the repository's policies and the one problem it must cause.
  struct Mistake: CustomTestStringConvertible, Sendable {
    var kind: String
    var file: String
    var find: String
    var replace: String
    var keyPath: String
    var message: String
    /// Set when a cross-file check reports the problem in another file.
    var reportFile: String?

    var testDescription: String { kind }
  }

  static let mistakes: [Mistake] = [
    Mistake(
      kind: "unknown key", file: "options.json", find: "\"modes\": [\"default\"],",
      replace: "\"modes\": [\"default\"], \"extra\": 1,",
      keyPath: "options.bluetoothHighQualityRecording.extra",
      message: "unknown key 'extra'; valid keys: implies, requires, source, modes, categoryModes"),
    Mistake(
      kind: "bad cell value", file: "categories.json",
      find: "\"duckOthers\": \"switch:ambientAcceptsDuckOthers\"",
      replace: "\"duckOthers\": \"maybe\"", keyPath: "categories.ambient.options.duckOthers",
      message: "unknown cell 'maybe'; valid: allowed, implied, forbidden, switch:<name>"),
    Mistake(
      kind: "bad mode cell value", file: "modes.json",
      find: "\"record\": \"switch:videoChatAllowsRecord\"", replace: "\"record\": \"implied\"",
      keyPath: "modes.videoChat.categories.record",
      message: "unknown cell 'implied'; valid: allowed, advisory, forbidden, switch:<name>"),
    Mistake(
      kind: "missing cell", file: "categories.json",
      find:
        "\"farFieldInput\": \"allowed\",\n        \"bluetoothHighQualityRecording\": \"allowed\"\n",
      replace: "\"farFieldInput\": \"allowed\"\n",
      keyPath: "categories.playAndRecord.options.bluetoothHighQualityRecording",
      message: "missing cell for option 'bluetoothHighQualityRecording'"),
    Mistake(
      kind: "wrong type", file: "categories.json",
      find: "\"supported\": false,", replace: "\"supported\": \"no\",",
      keyPath: "categories.audioProcessing.supported",
      message: "expected true or false, found the string \"no\""),
    Mistake(
      kind: "unknown option name", file: "modes.json",
      find: "\"impliedOptions\": [\"allowBluetoothHFP\"],",
      replace: "\"impliedOptions\": [\"bluetooth\"],",
      keyPath: "modes.voiceChat.impliedOptions[0]",
      message:
        """
        unknown option 'bluetooth'; valid: mixWithOthers, duckOthers, allowBluetoothHFP, \
        defaultToSpeaker, interruptSpokenAudioAndMixWithOthers, allowBluetoothA2DP, allowAirPlay, \
        overrideMutedMicrophoneInterruption, farFieldInput, bluetoothHighQualityRecording
        """
    ),
    Mistake(
      kind: "deprecated option alias", file: "options.json",
      find: "\"requires\": [\"allowBluetoothHFP\"]", replace: "\"requires\": [\"allowBluetooth\"]",
      keyPath: "options.farFieldInput.requires[0]",
      message:
        "'allowBluetooth' is the deprecated alias of 'allowBluetoothHFP'; write 'allowBluetoothHFP'"
    ),
    Mistake(
      kind: "missing schemaVersion", file: "interactions.json", find: "  \"schemaVersion\": 1,\n",
      replace: "", keyPath: "schemaVersion",
      message: "missing required key 'schemaVersion'; add \"schemaVersion\": 1"),
    Mistake(
      kind: "unsupported schemaVersion", file: "routes.json", find: "\"schemaVersion\": 1,",
      replace: "\"schemaVersion\": 2,", keyPath: "schemaVersion",
      message: "schemaVersion must be 1, the version this loader reads; found the number 2"),
    Mistake(
      kind: "duplicate key", file: "devices.json", find: "\"displayName\": \"CarPlay\",",
      replace: "\"displayName\": \"CarPlay\", \"displayName\": \"Car\",",
      keyPath: "presets.carAudio.displayName",
      message: "key 'displayName' appears more than once in the same object (again at line 143)"),
    Mistake(
      kind: "repeated list entry", file: "routes.json",
      find: "\"coupledPorts\": [\"bluetoothHFP\"]",
      replace: "\"coupledPorts\": [\"bluetoothHFP\", \"bluetoothHFP\"]", keyPath: "coupledPorts[1]",
      message: "port type 'bluetoothHFP' is listed twice"),
    Mistake(
      kind: "built-in port of the wrong direction", file: "routes.json",
      find: "\"builtIn\": \"builtInReceiver\"", replace: "\"builtIn\": \"builtInMic\"",
      keyPath: "categories.playAndRecord.outputs.builtIn",
      message:
        "'builtInMic' is not a built-in output port; valid: builtInReceiver, builtInSpeaker"),
    Mistake(
      kind: "external port of the wrong direction", file: "routes.json",
      find: "\"ports\": [\"usbAudio\", \"headsetMic\"]",
      replace: "\"ports\": [\"usbAudio\", \"HDMI\"]",
      keyPath: "categories.multiRoute.inputs.ports[1]",
      message:
        """
        'HDMI' is not an input port; valid: headsetMic, lineIn, continuityMicrophone, \
        bluetoothLE, bluetoothHFP, usbAudio, carAudio, virtual, PCI, fireWire, displayPort, AVB, \
        thunderbolt
        """
    ),
    Mistake(
      kind: "route for a direction the category lacks", file: "categories.json",
      find: "\"hasInput\": true,\n      \"hasOutput\": false,",
      replace: "\"hasInput\": true,\n      \"hasOutput\": true,", keyPath: "categories.record",
      message: "category 'record' has output (categories.json), so it needs \"outputs\""
    )
    .in("routes.json"),
    Mistake(
      kind: "last interaction rule is not a catch-all", file: "interactions.json",
      find: "\"incoming\": {},\n      \"holder\": {},",
      replace: "\"incoming\": {},\n      \"holder\": { \"hasOutput\": true },", keyPath: "rules[4]",
      message:
        """
        the last rule must match every pair (\"incoming\": {}, \"holder\": {}); its action is the \
        default
        """
    ),
    Mistake(
      kind: "playing on a rule that is no interruption", file: "interactions.json",
      find: "\"holder\": { \"hasOutput\": true },\n      \"action\": \"duck\"",
      replace:
        "\"holder\": { \"hasOutput\": true, \"playing\": true },\n      \"action\": \"duck\"",
      keyPath: "rules[2].holder",
      message:
        """
        'playing' applies only to a rule whose action is interrupt: who is interrupted is \
        decided when a session activates, while 'duck' lasts as long as both are active; remove \
        'playing' or make the action interrupt
        """),
    Mistake(
      kind: "playing in an incoming matcher", file: "interactions.json",
      find: "\"incoming\": { \"options\": [\"duckOthers\"] },",
      replace: "\"incoming\": { \"options\": [\"duckOthers\"], \"playing\": false },",
      keyPath: "rules[2].incoming.playing",
      message:
        "unknown key 'playing'; valid keys: categories, modes, mixable, options, hasInput, hasOutput"
    ),
    Mistake(
      kind: "unknown action", file: "interactions.json", find: "\"action\": \"duck\"",
      replace: "\"action\": \"lower\"", keyPath: "rules[2].action",
      message: "unknown action 'lower'; valid: mix, duck, interrupt, mute"),
    Mistake(
      kind: "dangling preset reference", file: "devices.json",
      find: "\"defaultDevices\": [\"builtInSpeaker\", \"builtInReceiver\", \"builtInMic\"]",
      replace: "\"defaultDevices\": [\"builtInSpeaker\", \"receiver\", \"builtInMic\"]",
      keyPath: "defaultDevices[1]",
      message:
        """
        unknown preset 'receiver'; valid: builtInSpeaker, builtInReceiver, builtInMic, \
        headphones, headset, bluetoothA2DP, bluetoothHFP, bluetoothHeadset, bluetoothLE, \
        usbAudio, HDMI, airPlay, carAudio, lineOut, lineIn
        """
    ),
    Mistake(
      kind: "preset port of the wrong direction", file: "devices.json",
      find: "{ \"type\": \"lineIn\", \"direction\": \"input\", \"name\": \"Line In\" }",
      replace: "{ \"type\": \"lineIn\", \"direction\": \"output\", \"name\": \"Line In\" }",
      keyPath: "presets.lineIn.ports[0].direction",
      message: "a 'lineIn' port cannot be an output; valid: input"),
    Mistake(
      kind: "unknown profile to inherit from", file: "profiles.json",
      find:
        "\"inherits\": \"default\",\n      \"switches\": {\n        \"noResumeAfterPrivateRouteLost\"",
      replace:
        "\"inherits\": \"defualt\",\n      \"switches\": {\n        \"noResumeAfterPrivateRouteLost\"",
      keyPath: "profiles.linuxDesktop.inherits",
      message:
        """
        unknown profile 'defualt' to inherit from; valid: default, ios18, ios15, ios27, \
        currentDocC, programmingGuide, ios26_5
        """),
    Mistake(
      kind: "profile that inherits from itself", file: "profiles.json",
      find:
        "\"inherits\": \"default\",\n      \"switches\": {\n        \"noResumeAfterPrivateRouteLost\"",
      replace:
        "\"inherits\": \"linuxDesktop\",\n      \"switches\": {\n        \"noResumeAfterPrivateRouteLost\"",
      keyPath: "profiles.linuxDesktop.inherits",
      message: "profiles inherit from each other: linuxDesktop → linuxDesktop"),
    Mistake(
      kind: "unknown vanishedApp value", file: "interactions.json",
      find: "\"vanishedApp\": \"endedShouldResume\"", replace: "\"vanishedApp\": \"resume\"",
      keyPath: "vanishedApp",
      message:
        "unknown vanishedApp value 'resume'; valid: endedShouldResume, endedNoResume, stayInterrupted"
    ),
    Mistake(
      kind: "missing vanishedApp", file: "interactions.json",
      find: ",\n  \"vanishedApp\": \"endedShouldResume\"", replace: "", keyPath: "vanishedApp",
      message: "missing required key 'vanishedApp'"),
    Mistake(
      kind: "unknown vanishedApp override in a profile", file: "profiles.json",
      find: "\"categoryChangeWhileInactive\": true,",
      replace: "\"categoryChangeWhileInactive\": true, \"vanishedApp\": \"ended\",",
      keyPath: "profiles.programmingGuide.switches.vanishedApp",
      message:
        "unknown vanishedApp value 'ended'; valid: endedShouldResume, endedNoResume, stayInterrupted"
    ),
    Mistake(
      kind: "vanishedApp override of the wrong type", file: "profiles.json",
      find: "\"categoryChangeWhileInactive\": true,",
      replace: "\"categoryChangeWhileInactive\": true, \"vanishedApp\": true,",
      keyPath: "profiles.programmingGuide.switches.vanishedApp",
      message: "expected a string, found true"),
    Mistake(
      kind: "unknown default profile", file: "profiles.json",
      find: "\"defaultProfile\": \"default\"", replace: "\"defaultProfile\": \"simulator\"",
      keyPath: "defaultProfile",
      message:
        "unknown profile 'simulator'; valid: default, ios18, ios15, ios27, currentDocC, "
        + "programmingGuide, ios26_5, linuxDesktop"
    ),
    Mistake(
      kind: "unknown background error", file: "interactions.json",
      find: "\"error\": \"cannotStartPlaying\"", replace: "\"error\": \"cannotPlay\"",
      keyPath: "background[1].error",
      message:
        "unknown error code 'cannotPlay'; valid: mediaServicesFailed, isBusy, incompatibleCategory, "
        + "cannotInterruptOthers, missingEntitlement, siriIsRecording, cannotStartPlaying, "
        + "cannotStartRecording, badParam, insufficientPriority, resourceNotAvailable, unspecified, "
        + "expiredSession, sessionNotActive"),
    Mistake(
      kind: "hardware sample rate outside its range", file: "devices.json",
      find: "\"sampleRate\": 48000", replace: "\"sampleRate\": 96000",
      keyPath: "hardware.sampleRate", message: "96000.0 is outside sampleRates"),
    Mistake(
      kind: "hardware channels not whole", file: "devices.json",
      find: "\"defaultChannels\": 2", replace: "\"defaultChannels\": 1.5",
      keyPath: "hardware.defaultChannels", message: "expected a whole number of channels"),
    Mistake(
      kind: "unknown polar pattern of a data source", file: "devices.json",
      find: "\"polarPatterns\": [\"omnidirectional\", \"stereo\"]",
      replace: "\"polarPatterns\": [\"omnidirectional\", \"hypercardioid\"]",
      keyPath: "hardware.dataSources.builtInMic[0].polarPatterns[1]",
      message:
        "unknown polar pattern 'hypercardioid'; valid: omnidirectional, cardioid, subcardioid, stereo"
    ),
    Mistake(
      kind: "data source's start pattern not among its patterns", file: "devices.json",
      find: "\"stereo\"], \"polarPattern\": \"omnidirectional\"",
      replace: "\"stereo\"], \"polarPattern\": \"cardioid\"",
      keyPath: "hardware.dataSources.builtInMic[0].polarPattern",
      message: "'cardioid' is not among polarPatterns (omnidirectional, stereo)"),
    Mistake(
      kind: "data source listed twice", file: "devices.json",
      find: "\"name\": \"Back\", \"location\"", replace: "\"name\": \"Front\", \"location\"",
      keyPath: "hardware.dataSources.builtInMic[2]",
      message: "the data source 'Front' is listed twice"),
    Mistake(
      kind: "unknown data source location", file: "devices.json",
      find: "\"location\": \"lower\"", replace: "\"location\": \"middle\"",
      keyPath: "hardware.dataSources.builtInMic[0].location",
      message: "unknown location 'middle'; valid: upper, lower"),
    Mistake(
      kind: "polar pattern without its channels", file: "devices.json",
      find: ", \"stereo\": 2 }", replace: " }",
      keyPath: "hardware.polarPatternChannels.stereo",
      message: "missing entry for polar pattern 'stereo'"),
    Mistake(
      kind: "unknown background call", file: "interactions.json",
      find: "\"call\": \"activate\"", replace: "\"call\": \"record\"",
      keyPath: "background[0].call", message: "unknown call 'record'; valid: activate, play"),
    Mistake(
      kind: "missing siri matcher", file: "interactions.json",
      find: "\"refusesActivation\": { \"hasInput\": true },\n", replace: "",
      keyPath: "siri.refusesActivation", message: "missing required key 'refusesActivation'"),
  ]

  @Test(
    "each kind of mistake is reported with its file and key path (docs/style.md §3.5)",
    arguments: mistakes)
  func load_withMistake_reportsFileAndKeyPath(mistake: Mistake) throws {
    let fixture = try PolicyFixture()
    try fixture.edit(mistake.file, replacing: mistake.find, with: mistake.replace)
    let problems = fixture.problems()
    #expect(
      problems == [
        PolicyProblem(file: mistake.reportedIn, keyPath: mistake.keyPath, message: mistake.message)
      ])
  }

  @Test(
    "a switch missing from the profile the others inherit from is missing from each of them but the one that sets it, each reported (policies/README.md profiles.json)"
  )
  func load_switchMissingFromParent_reportedPerProfile() throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "profiles.json", replacing: "\"invalidOptionError\": \"badParam\",\n", with: "")
    let missing = [
      "default", "ios18", "ios15", "ios27", "currentDocC", "programmingGuide", "linuxDesktop",
    ].map {
      PolicyProblem(
        file: "profiles.json", keyPath: "profiles.\($0).switches.invalidOptionError",
        message:
          """
          missing switch 'invalidOptionError' (§12 D5); every profile sets every switch, itself \
          or through the profile it inherits from
          """)
    }
    #expect(fixture.problems() == missing)
  }

  @Test("the problem description is one bullet 'file: key.path: message' (docs/style.md §3.3)")
  func description_badCell_isOneBullet() throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "categories.json", replacing: "\"duckOthers\": \"switch:ambientAcceptsDuckOthers\"",
      with: "\"duckOthers\": \"maybe\"")
    let error = PolicyValidationError(problems: fixture.problems())
    #expect(
      error.description
        == "- categories.json: categories.ambient.options.duckOthers: unknown cell 'maybe'; "
        + "valid: allowed, implied, forbidden, switch:<name>"
    )
  }

  @Test(
    "an unknown category name is reported, and so is the row it was meant to be (docs/avaudiosession.md §1.1)"
  )
  func load_misspelledCategory_reportsUnknownAndMissing() throws {
    let fixture = try PolicyFixture()
    try fixture.edit("routes.json", replacing: "\"soloAmbient\": {", with: "\"soloambient\": {")
    #expect(
      fixture.problems() == [
        PolicyProblem(
          file: "routes.json", keyPath: "categories.soloambient",
          message:
            """
            unknown category 'soloambient'; valid: ambient, soloAmbient, playback, record, \
            playAndRecord, audioProcessing, multiRoute
            """
        ),
        PolicyProblem(
          file: "routes.json", keyPath: "categories.soloAmbient",
          message: "missing row for category 'soloAmbient'"),
      ])
  }

  @Test(
    "a switch no profile sets is reported at its cell (docs/avaudiosession.md §12)"
  )
  func load_danglingSwitch_reportsCellAndUnusedProfileSwitches() throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "modes.json", replacing: "\"record\": \"switch:videoChatAllowsRecord\"",
      with: "\"record\": \"switch:videoChatRecord\"")
    let problems = fixture.problems()
    let valid =
      """
      defaultToSpeakerOverridesHeadphones, enforceAdvisoryModes, invalidOptionError, \
      endedAfterCall, endedWithoutNotifyOthers, rejectExplicitImpliedOptions, \
      callBlocksPlaybackActivation, readBackModeImpliedOptions, categoryChangeWhileInactive, \
      noResumeAfterPrivateRouteLost, deactivateWithRunningIOIsBusy, \
      suspensionReasonAppWasSuspended, lifecycleNotifications, vanishedApp, \
      ambientAcceptsDuckOthers, multiRouteMixable, recordAcceptsDuckOthers, videoChatRecord
      """
    // Reported where it is set: the profiles that inherit it are not told of it again.
    let unused = ["default", "currentDocC"].map {
      PolicyProblem(
        file: "profiles.json", keyPath: "profiles.\($0).switches.videoChatAllowsRecord",
        message:
          "unknown switch 'videoChatAllowsRecord'; no table cell refers to it; valid: \(valid)")
    }
    #expect(
      problems == [
        PolicyProblem(
          file: "modes.json", keyPath: "modes.videoChat.categories.record",
          message:
            """
            switch 'videoChatRecord' is not set by any profile; add \"videoChatRecord\": true or \
            false to the switches of every profile in profiles.json that inherits from none
            """
        )
      ] + unused)
  }

  @Test("malformed JSON is reported with line and column (docs/style.md §3.5)")
  func load_malformedJSON_reportsLineAndColumn() throws {
    let fixture = try PolicyFixture()
    try fixture.write(
      "options.json",
      "{\n  \"schemaVersion\": 1,\n  \"options\": {\n    \"mixWithOthers\" {}\n  }\n}\n")
    #expect(
      fixture.problems() == [
        PolicyProblem(
          file: "options.json", keyPath: "",
          message:
            """
            invalid JSON at line 4, column 21: expected ':' after the key \"mixWithOthers\", \
            found '{'
            """
        )
      ])
  }

  @Test("several mistakes in several files are all reported, in file order (docs/style.md §3.3)")
  func load_severalMistakes_reportsEveryProblem() throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "profiles.json", replacing: "\"categoryChangeWhileInactive\": true,",
      with: "\"categoryChangeWhileInactive\": 1,")
    try fixture.edit(
      "categories.json", replacing: "\"defaultToSpeaker\": \"allowed\"",
      with: "\"defaultToSpeaker\": \"yes\"")
    try fixture.edit(
      "modes.json", replacing: "\"source\": \"§3 ([H26], [ASPG-CM])\"", with: "\"source\": \"\"")
    try fixture.edit(
      "devices.json", replacing: "\"name\": \"Line Out\" }",
      with: "\"name\": \"Line Out\", \"gain\": 3 }")
    let problems = fixture.problems()
    #expect(
      problems.map(\.file) == ["categories.json", "modes.json", "devices.json", "profiles.json"])
    #expect(
      problems.map(\.keyPath) == [
        "categories.playAndRecord.options.defaultToSpeaker", "modes.videoRecording.source",
        "presets.lineOut.ports[0].gain",
        "profiles.programmingGuide.switches.categoryChangeWhileInactive",
      ])
  }

  @Test(
    "a missing file, an unknown file and a missing directory are reported (docs/style.md §3.5)")
  func load_missingAndUnknownFiles_areReported() throws {
    let fixture = try PolicyFixture()
    try fixture.remove("routes.json")
    try fixture.write("route.json", "{}")
    let files = PolicyLoader.fileNames.joined(separator: ", ")
    #expect(
      fixture.problems() == [
        PolicyProblem(
          file: "route.json", keyPath: "", message: "unknown policy file; valid files: \(files)"),
        PolicyProblem(
          file: "routes.json", keyPath: "",
          message: "missing file; a policy directory holds \(files)"),
      ])
    let missing = fixture.directory + "/nowhere"
    do {
      _ = try PolicyLoader.load(directory: missing)
      Issue.record("a missing directory loaded")
    } catch {
      #expect(
        error.problems == [
          PolicyProblem(
            file: missing, keyPath: "",
            message: "no such policy directory; give a directory that holds \(files)")
        ])
    }
  }
}

extension PolicyLoaderTests.Mistake {
  /// The file the problem is reported in, when a cross-file check reports it elsewhere.
  var reportedIn: String { reportFile ?? file }

  func `in`(_ file: String) -> Self {
    var copy = self
    copy.reportFile = file
    return copy
  }
}
