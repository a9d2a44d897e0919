import AudioSession

/// The spec's option and mode tables (docs/avaudiosession.md §3, §4.1, §4.2, §12), written out here
/// independently of `policies/`, so the JSON and `Policy.validate` can be checked against them.
enum SpecOracle {
  /// A cell of §4.1 (options) or §3 (modes), with disputed cells named by their switch.
  enum Cell: Equatable {
    case yes
    case implied
    case no
    case advisory
    case disputed(String)
  }

  /// The §12 answers a profile gives, as the spec and the profile descriptions state them.
  struct Answers {
    var ambientAcceptsDuckOthers: Bool
    var videoChatAllowsRecord: Bool
    var multiRouteMixable: Bool
    /// §4.1a, §12 D14: true but for the DocC reading.
    var recordAcceptsDuckOthers = true
    var enforceAdvisoryModes: Bool
    var rejectExplicitImpliedOptions: Bool
    var invalidOptionError: SessionErrorCode

    func resolves(_ name: String) -> Bool {
      switch name {
      case "ambientAcceptsDuckOthers": ambientAcceptsDuckOthers
      case "videoChatAllowsRecord": videoChatAllowsRecord
      case "multiRouteMixable": multiRouteMixable
      case "recordAcceptsDuckOthers": recordAcceptsDuckOthers
      default: false
      }
    }
  }

  /// §12 "Simulator default" column and the readings each other profile stands for.
  static let profiles: [String: Answers] = [
    "default": Answers(
      ambientAcceptsDuckOthers: true, videoChatAllowsRecord: false, multiRouteMixable: true,
      enforceAdvisoryModes: false, rejectExplicitImpliedOptions: false,
      invalidOptionError: .badParam),
    "currentDocC": Answers(
      ambientAcceptsDuckOthers: false, videoChatAllowsRecord: true, multiRouteMixable: true,
      recordAcceptsDuckOthers: false, enforceAdvisoryModes: false,
      rejectExplicitImpliedOptions: false, invalidOptionError: .badParam),
    "programmingGuide": Answers(
      ambientAcceptsDuckOthers: true, videoChatAllowsRecord: false, multiRouteMixable: false,
      enforceAdvisoryModes: true, rejectExplicitImpliedOptions: false, invalidOptionError: .badParam
    ),
    "ios26_5": Answers(
      ambientAcceptsDuckOthers: true, videoChatAllowsRecord: false, multiRouteMixable: true,
      enforceAdvisoryModes: false, rejectExplicitImpliedOptions: true,
      invalidOptionError: .unspecified),
  ]

  /// §4.1, columns ambient, soloAmbient, playback, record, playAndRecord, audioProcessing,
  /// multiRoute (audioProcessing: no option, §2).
  static let optionMatrix: [CategoryOption: [Cell]] = [
    .mixWithOthers: [.implied, .no, .yes, .no, .yes, .no, .disputed("multiRouteMixable")],
    // record: as iOS runs it (§4.1a), though the option pages list other categories only.
    .duckOthers: [
      .disputed("ambientAcceptsDuckOthers"), .no, .yes, .disputed("recordAcceptsDuckOthers"), .yes,
      .no,
      .disputed("multiRouteMixable"),
    ],
    .allowBluetoothHFP: [.no, .no, .no, .yes, .yes, .no, .yes],
    .defaultToSpeaker: [.no, .no, .no, .no, .yes, .no, .no],
    .interruptSpokenAudioAndMixWithOthers: [
      .no, .no, .yes, .no, .yes, .no, .disputed("multiRouteMixable"),
    ],
    .allowBluetoothA2DP: [.implied, .implied, .implied, .no, .yes, .no, .no],
    .allowAirPlay: [.implied, .implied, .implied, .no, .yes, .no, .no],
    .overrideMutedMicrophoneInterruption: [.no, .no, .no, .no, .yes, .no, .yes],
    .farFieldInput: [.no, .no, .no, .yes, .yes, .no, .yes],
    .bluetoothHighQualityRecording: [.no, .no, .no, .no, .yes, .no, .no],
  ]

  /// §3, same columns as ``optionMatrix``.
  static let modeMatrix: [Mode: [Cell]] = [
    .default: [.yes, .yes, .yes, .yes, .yes, .yes, .yes],
    .voiceChat: [.no, .no, .no, .no, .yes, .no, .no],
    .gameChat: [.no, .no, .no, .no, .yes, .no, .no],
    .videoRecording: [.no, .no, .no, .yes, .yes, .no, .no],
    .measurement: [.advisory, .advisory, .yes, .yes, .yes, .no, .advisory],
    .moviePlayback: [.no, .no, .yes, .no, .no, .no, .no],
    .videoChat: [.no, .no, .no, .disputed("videoChatAllowsRecord"), .yes, .no, .no],
    .spokenAudio: [.advisory, .advisory, .yes, .advisory, .advisory, .no, .advisory],
    .voicePrompt: [.yes, .yes, .yes, .yes, .yes, .yes, .yes],
    .shortFormVideo: [.no, .no, .yes, .no, .no, .no, .no],
    .dualRoute: [.no, .no, .no, .no, .no, .no, .yes],
  ]

  static let columns: [Category] = [
    .ambient, .soloAmbient, .playback, .record, .playAndRecord, .audioProcessing, .multiRoute,
  ]

  static func cell(_ option: CategoryOption, _ category: Category) -> Cell {
    optionMatrix[option]?[columns.firstIndex(of: category) ?? 0] ?? .no
  }

  static func cell(_ mode: Mode, _ category: Category) -> Cell {
    modeMatrix[mode]?[columns.firstIndex(of: category) ?? 0] ?? .no
  }

  /// One reason a configuration is invalid: the error code and a name the message must mention.
  struct Violation: Equatable {
    var code: SessionErrorCode
    var name: String
  }

  /// The options an app can be told apart from bits: interruptSpokenAudioAndMixWithOthers
  /// (0x11) carries the mixWithOthers bit, so mixWithOthers alongside it is not separate (§1.2).
  static func explicit(_ options: [CategoryOption]) -> [CategoryOption] {
    options.contains(.interruptSpokenAudioAndMixWithOthers)
      ? options.filter { $0 != .mixWithOthers } : options
  }

  /// Explicit plus implied options (§4.2): ambient implies mixWithOthers; duckOthers and
  /// interruptSpokenAudioAndMixWithOthers imply it too.
  static func effective(_ category: Category, _ options: [CategoryOption]) -> CategoryOptions {
    var effective = CategoryOptions(options)
    if category == .ambient { effective.formUnion(.mixWithOthers) }
    if options.contains(.duckOthers) || options.contains(.interruptSpokenAudioAndMixWithOthers) {
      effective.formUnion(.mixWithOthers)
    }
    return effective
  }

  /// Everything wrong with a configuration under a profile's answers (empty: valid).
  static func violations(
    _ category: Category, _ mode: Mode, _ options: [CategoryOption], _ answers: Answers
  ) -> [Violation] {
    guard category != .audioProcessing else {
      return [Violation(code: .badParam, name: category.name)]
    }
    var found: [Violation] = []
    switch cell(mode, category) {
    case .yes, .implied: break
    case .advisory where !answers.enforceAdvisoryModes: break
    case .disputed(let name) where answers.resolves(name): break
    case .advisory, .no, .disputed:
      found.append(Violation(code: .badParam, name: mode.name))
    }
    let optionError = answers.invalidOptionError
    let named = explicit(options)
    for option in named {
      switch cell(option, category) {
      case .yes: break
      case .implied where !answers.rejectExplicitImpliedOptions: break
      case .disputed(let name) where answers.resolves(name): break
      case .implied, .no, .advisory, .disputed:
        found.append(Violation(code: optionError, name: option.name))
      }
    }
    let effective = effective(category, named)
    if named.contains(.farFieldInput), !effective.contains(.allowBluetoothHFP) {
      found.append(Violation(code: optionError, name: CategoryOption.farFieldInput.name))
    }
    if named.contains(.bluetoothHighQualityRecording), mode != .default {
      found.append(
        Violation(code: optionError, name: CategoryOption.bluetoothHighQualityRecording.name))
    }
    // [H27T]: with multiRoute, the mixing options only in mode default, farFieldInput only in
    // dualRoute (§4.1).
    if category == .multiRoute {
      for option in named
      where [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers].contains(option)
        && mode != .default
      {
        found.append(Violation(code: optionError, name: option.name))
      }
      if named.contains(.farFieldInput), mode != .dualRoute {
        found.append(Violation(code: optionError, name: CategoryOption.farFieldInput.name))
      }
    }
    if mode == .dualRoute, !effective.contains(.allowBluetoothHFP) {
      found.append(Violation(code: .badParam, name: mode.name))
    }
    return found
  }

  /// Whether a valid configuration is accepted with a warning (an advisory mode, §12 D4).
  static func warns(_ category: Category, _ mode: Mode) -> Bool {
    cell(mode, category) == .advisory
  }
}
