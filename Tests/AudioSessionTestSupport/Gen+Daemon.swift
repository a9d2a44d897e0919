import AudioSession
package import AudioSessionWire
package import PropertyBased

/// Generators of wire requests for the protocol's property tests and the record's (every command
/// a client sends is a step of a recorded scenario: docs/contract.md "Recording what the daemon
/// saw").
extension Gen where Value == DaemonRequest.Operation {
  package static let sessionNames = ["music", "nav", "call-app", "a.b_c-9", "Default"]
  package static let presets = ["headphones", "headset", "bluetoothA2DP", "usbAudio", "nosuch"]

  /// Any operation a client can send, with valid session names.
  package static var operation: Generator<DaemonRequest.Operation, some SendableSequenceType> {
    let session = Gen<String?>.element(of: sessionNames).compactMap { $0 }
    let options = Gen<CategoryOption>.case.array(of: 0...3).map { CategoryOptions($0) }
    let action: Generator<SimulationAction, some SendableSequenceType> = zip(
      Gen<Int>.int(in: 0...12), Gen<Bool>.bool,
      Gen<String?>.element(of: presets).compactMap { $0 }
    ).map { kind, flag, preset -> SimulationAction in
      switch kind {
      case 0: .plug(preset: preset)
      case 1: .unplug(preset)
      case 2: .call(active: flag)
      case 3: .silentSwitch(on: flag)
      case 4: .screenLock(on: flag)
      case 5: .micMute(on: flag)
      case 6: .callRing(flag ? .banner : .fullScreen)
      case 7: .siri(active: flag)
      case 8: .mediaServices(lost: flag)
      case 9: .volume(flag ? 0.25 : 1)
      case 10: .recordPermission(flag ? .denied : .undetermined)
      case 11: .alarm(active: flag)
      default: .serverRestart
      }
    }
    return zip(
      Gen<Int>.int(in: 0...23), session, Gen<Category>.case, Gen<Mode?>.element(of: Mode.allCases),
      options, Gen<Bool>.bool, action
    ).map { kind, session, category, mode, options, flag, action -> DaemonRequest.Operation in
      switch kind {
      case 0: .hello(client: flag ? session : nil)
      case 1: .open(session: session)
      case 2:
        .command(
          .input(
            .setCategory(
              session: session, category: category, mode: mode, options: options,
              policy: RouteSharingPolicy.allCases[Int(options.rawValue % 4)])))
      case 3: .command(.input(.setMode(session: session, mode: mode ?? .default)))
      case 4: .command(.input(.setActive(session: session, active: true, options: [])))
      case 5:
        .command(
          .input(
            .setActive(
              session: session, active: false, options: flag ? .notifyOthersOnDeactivation : [])))
      case 6: .command(.input(.startIO(session: session)))
      case 7: .command(.input(.stopIO(session: session)))
      case 8: .command(.input(.overrideOutput(session: session, flag ? .speaker : .none)))
      case 9:
        .command(
          .input(.setPreferredInput(session: session, uid: flag ? "headset-1:headsetMic" : nil)))
      case 10: .command(.input(.removeSession(session)))
      case 11: .command(.status)
      case 12: .command(.route(session: session))
      case 13: .command(.devices)
      case 14: .session(session)
      case 15: .command(.simulate(action))
      case 16: .watch(flag ? .all : .interruptions)
      case 17:
        .command(
          .input(.setAppState(session: session, AppState.allCases[Int(options.rawValue % 3)])))
      case 18: .command(.input(.setNowPlaying(session: session, flag)))
      case 19:
        .command(
          .input(
            .setPreference(
              session: session,
              flag
                ? .noInterruptionsFromSystemAlerts(mode != nil)
                : .interruptionOnRouteDisconnect(mode == nil))))
      case 20:
        flag
          ? .command(.input(.setInputGain(session: session, Double(options.rawValue % 9) / 8)))
          : options.rawValue % 2 == 0
            ? .command(.input(.setDataSource(session: session, mode.map(\.name) ?? "Front")))
            : .command(
              .input(
                .setPolarPattern(
                  session: session, dataSource: "Bottom",
                  mode == nil ? nil : PolarPattern.allCases[Int(options.rawValue % 4)])))
      case 21: .command(.input(.setOutputMuted(session: session, flag)))
      case 22: .command(.input(.setInputMuted(session: session, flag)))
      default: .watch(flag ? .routes : .none)
      }
    }
  }
}
