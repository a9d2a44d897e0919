import AudioSession

/// Whether the process a PulseAudio-protocol client's stream names checks out (docs/apps.md
/// "Sessions of other programs"). `application.process.id` is the client's own word: libpulse
/// fills it in, but `PULSE_PROP="application.process.id=4711"` claims any process, and neither
/// PulseAudio nor pipewire-pulse checks it (pipewire-pulse's `pipewire.sec.pid` for its own
/// clients is its own process). A stream that named a media player's pid was taken for that
/// player's program: its app session got the player, and a call that interrupted it paused
/// the player. So the backend asks the kernel: the claimed process must run the program the
/// stream says (`application.process.binary`, which libpulse reads from `/proc/self/exe`), and
/// hold one of the connections to the server's socket. A stream whose claim fails is marked
/// (``ServerStream/unverifiedProcessKey``) and arbitrated as its own app, by its server client.
///
/// A value with no I/O: the backend hands it what `/proc` and the kernel's socket diagnostics
/// said (``Facts``), and it keeps each verdict by client and claim, for the connection, so that
/// `/proc` is read once per client.
struct ProcessClaims: Sendable {
  /// What the kernel said of a claimed process.
  struct Facts: Sendable, Hashable {
    /// The file name of the program it runs; nil when it is gone or not this user's.
    var executable: String?
    /// Whether it holds a connection to the server's socket; nil when that cannot be told (no
    /// socket diagnostics, or a server not on a Unix socket).
    var connected: Bool?
  }

  /// A client's claim: its index on the server and the pid its stream names.
  struct Claim: Sendable, Hashable {
    var client: UInt32
    var pid: Int32
  }

  /// The verdicts of this connection: nil when the claim checks out, else why not.
  private(set) var verdicts: [Claim: String?] = [:]
  /// Claims whose first look failed as a client that has just left fails too (its process
  /// gone, or holding no connection any more: espeak-ng opens a stream for a moment and closes
  /// its connection before `/proc` is read): their streams wait, unreported, for a second look,
  /// which is final.
  private(set) var secondLooks: Set<Claim> = []

  /// What a look at a claim found.
  enum Judgement: Sendable, Hashable {
    case checksOut
    case fails(String)
    /// It failed as a departed client's would: look again once the server says whether the
    /// client is still there.
    case looksAgain
  }

  /// The claim a stream makes that needs the kernel's word: a positive pid from a
  /// PulseAudio-protocol client (on PipeWire, a native client's claim is checked against its
  /// `pipewire.sec.pid` instead, ``PulseClientInfo/completing(_:)``), not judged yet.
  func unjudged(_ properties: [String: String], client: UInt32?, pipewire: Bool) -> Claim? {
    guard let claim = Self.claim(properties, client: client, pipewire: pipewire),
      verdicts[claim] == nil
    else { return nil }
    return claim
  }

  static func claim(_ properties: [String: String], client: UInt32?, pipewire: Bool) -> Claim? {
    guard let client, properties[ServerStream.unverifiedProcessKey] == nil,
      let text = properties["application.process.id"], let pid = Int32(text), pid > 0
    else { return nil }
    if pipewire, properties["client.api"] != PulseClientInfo.pulseClientAPI { return nil }
    return Claim(client: client, pid: pid)
  }

  /// Judges a claim by what the kernel said. A first look that fails as a departed client's
  /// would is not a verdict yet (``Judgement/looksAgain``); any other look is.
  @discardableResult
  mutating func judge(_ claim: Claim, binary: String?, facts: Facts) -> Judgement {
    let verdict = Self.verdict(claim, binary: binary, facts: facts)
    if verdict != nil, facts.executable == nil || facts.connected == false,
      secondLooks.insert(claim).inserted
    {
      return .looksAgain
    }
    verdicts[claim] = .some(verdict)
    return verdict.map(Judgement.fails) ?? .checksOut
  }

  /// Whether a stream waits for the second look at its claim (it is not reported meanwhile).
  func waits(_ properties: [String: String], client: UInt32?, pipewire: Bool) -> Bool {
    guard let claim = Self.claim(properties, client: client, pipewire: pipewire) else {
      return false
    }
    return secondLooks.contains(claim) && verdicts[claim] == nil
  }

  /// Whether a client has a claim that waits for its second look.
  func waits(client: UInt32) -> Bool {
    secondLooks.contains { $0.client == client && verdicts[$0] == nil }
  }

  static func verdict(_ claim: Claim, binary: String?, facts: Facts) -> String? {
    guard let executable = facts.executable else {
      return "process \(claim.pid) is gone or not this user's"
    }
    if let binary, binary != executable {
      return "process \(claim.pid) runs '\(executable)', the stream says '\(binary)'"
    }
    if facts.connected == false {
      return "process \(claim.pid) holds no connection to the server"
    }
    return nil
  }

  /// A stream's properties with the mark when its claim was judged false.
  func marked(_ properties: [String: String], client: UInt32?, pipewire: Bool) -> [String: String] {
    guard let claim = Self.claim(properties, client: client, pipewire: pipewire),
      case .some(.some) = verdicts[claim]
    else { return properties }
    var marked = properties
    marked[ServerStream.unverifiedProcessKey] = "\(claim.pid)"
    return marked
  }

  /// Keeps only the verdicts of clients still there.
  mutating func keep(clients: Set<UInt32>) {
    verdicts = verdicts.filter { clients.contains($0.key.client) }
    secondLooks = secondLooks.filter { clients.contains($0.client) }
  }

  /// Forgets every verdict (a new connection: client indices start again).
  mutating func forgetAll() {
    verdicts = [:]
    secondLooks = []
  }
}
