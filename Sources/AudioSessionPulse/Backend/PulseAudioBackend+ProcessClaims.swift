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
      if let failure = claims.judge(
        claim, binary: properties["application.process.binary"], facts: facts)
      {
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

  /// The path of the server's Unix socket, when the backend reaches it through one.
  var serverSocketPath: String? {
    guard let address = endpoint.address ?? Self.environmentAddress(),
      address.hasPrefix("unix:"), !address.contains(" ")
    else { return nil }
    return String(address.dropFirst("unix:".count))
  }
}
