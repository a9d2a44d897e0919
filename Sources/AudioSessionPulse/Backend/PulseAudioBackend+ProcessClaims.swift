import AudioSession
import AudioSessionSystem
import Logging

/// Checks the processes other programs' streams name against what the kernel says, once per
/// client and claim (``ProcessClaims``; docs/apps.md "Sessions of other programs").
extension PulseAudioBackend {
  /// Judges the claims of the snapshot's streams not judged yet, reading `/proc` and the
  /// kernel's socket diagnostics, and logs each that fails.
  func checkClaims(in snapshot: PulseServerSnapshot) {
    let pipewire = endpoint.flavor == .pipewire
    let streams =
      snapshot.sinkInputs.map { ($0.properties, $0.clientIndex) }
      + snapshot.sourceOutputs.map { ($0.properties, $0.clientIndex) }
    claims.keep(clients: Set(streams.compactMap(\.1)))
    var connected: Set<UInt64>??
    for (properties, client) in streams {
      guard properties[PulseSimulatedDevice.Key.owner] == nil,
        let claim = claims.unjudged(properties, client: client, pipewire: pipewire)
      else { continue }
      let executable = ProcessSockets.executableName(of: claim.pid)
      var holds: Bool?
      if executable != nil, let path = serverSocketPath {
        // One look at the server's connections for all the claims of this snapshot.
        if connected == nil { connected = .some(ProcessSockets.clientsConnected(to: path)) }
        // None at all (the daemon's own connection among them) means the server listens
        // under another name than its address says (a link on the way): that cannot be told.
        if let clients = connected ?? nil, !clients.isEmpty {
          let sockets = ProcessSockets.socketInodes(of: claim.pid) ?? []
          holds = !sockets.isDisjoint(with: clients)
        }
      }
      let facts = ProcessClaims.Facts(executable: executable, connected: holds)
      switch claims.judge(claim, binary: properties["application.process.binary"], facts: facts) {
      case .checksOut:
        continue
      case .looksAgain:
        configuration.logger.debug(
          "a stream's claim of process \(claim.pid) does not check out yet: looked at again",
          metadata: ["client": "\(claim.client)", "pid": "\(claim.pid)"])
        lookAgain(atClient: claim.client)
      case .fails(let failure):
        configuration.logger.info(
          """
          a stream names process \(claim.pid) (application.process.id), which does not check \
          out: \(failure); it is arbitrated as its own app, without that process's session or \
          media players
          """,
          metadata: ["client": "\(claim.client)", "pid": "\(claim.pid)"])
      }
    }
  }

  /// How long a claim that failed as a departed client's would waits for its second look.
  static let claimSecondLook: Duration = .milliseconds(50)

  /// Looks again at a client's claim a moment later: the server's answer about the client
  /// comes after every change it made before it, so a client that has left is gone from it,
  /// and its streams were never reported; one still there is judged again, finally, and its
  /// streams reported.
  private func lookAgain(atClient client: UInt32) {
    Task { [weak self] in
      try? await TimerThread.sleep(for: Self.claimSecondLook)
      await self?.claimLookedAgain(atClient: client)
    }
  }

  private func claimLookedAgain(atClient client: UInt32) async {
    guard !stopped, let link, claims.waits(client: client) else { return }
    let there = (try? await link.context.client(at: client)) != nil
    guard !stopped, there, let snapshot else { return }
    reportOtherStreams(snapshot)
  }

  /// The path of the server's Unix socket, when the backend reaches it through one.
  var serverSocketPath: String? {
    guard let address = endpoint.address ?? Self.environmentAddress(),
      address.hasPrefix("unix:"), !address.contains(" ")
    else { return nil }
    return String(address.dropFirst("unix:".count))
  }
}
