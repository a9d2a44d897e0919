import AudioSession
import AudioSessionSystem
import AudioSessionTestSupport
import Foundation
import Testing

@testable import AudioSessionPulse

#if canImport(Glibc)
  import Glibc
#endif

/// The checks of the process a stream names, with no server (docs/apps.md "Sessions of other
/// programs"): a PulseAudio client's claim against `/proc` and the kernel's sockets, a native
/// PipeWire client's against its `pipewire.sec.pid`.
@Suite struct ProcessClaimsTests {
  static let pacat = [
    "application.process.id": "4711", "application.process.binary": "pacat",
  ]

  @Test(
    "a claim holds only when the process runs the program the stream says and holds a connection to the server (docs/apps.md Sessions of other programs)"
  )
  func verdict_factsDecide() {
    let claim = ProcessClaims.Claim(client: 3, pid: 4711)
    let good = ProcessClaims.Facts(executable: "pacat", connected: true)
    #expect(ProcessClaims.verdict(claim, binary: "pacat", facts: good) == nil)
    // No socket diagnostics: the program alone decides.
    let untold = ProcessClaims.Facts(executable: "pacat", connected: nil)
    #expect(ProcessClaims.verdict(claim, binary: "pacat", facts: untold) == nil)
    #expect(
      ProcessClaims.verdict(
        claim, binary: "pacat", facts: .init(executable: "mpv", connected: true))
        == "process 4711 runs 'mpv', the stream says 'pacat'")
    #expect(
      ProcessClaims.verdict(
        claim, binary: "pacat", facts: .init(executable: "pacat", connected: false))
        == "process 4711 holds no connection to the server")
    #expect(
      ProcessClaims.verdict(claim, binary: "pacat", facts: .init(executable: nil, connected: nil))
        == "process 4711 is gone or not this user's")
  }

  @Test(
    "a claim judged false marks the client's streams, once per client and claim, and a new connection forgets it (docs/apps.md Sessions of other programs)"
  )
  func marked_afterFalseVerdict() throws {
    var claims = ProcessClaims()
    let claim = try #require(claims.unjudged(Self.pacat, client: 3, pipewire: false))
    #expect(claims.marked(Self.pacat, client: 3, pipewire: false) == Self.pacat)
    claims.judge(claim, binary: "pacat", facts: .init(executable: "mpv", connected: true))
    #expect(claims.unjudged(Self.pacat, client: 3, pipewire: false) == nil)
    let marked = claims.marked(Self.pacat, client: 3, pipewire: false)
    #expect(marked[ServerStream.unverifiedProcessKey] == "4711")
    #expect(marked["application.process.id"] == "4711")
    // Another client's claim of the same pid is its own to judge.
    #expect(claims.unjudged(Self.pacat, client: 4, pipewire: false) != nil)
    claims.keep(clients: [4])
    #expect(claims.unjudged(Self.pacat, client: 3, pipewire: false) != nil)
    claims.judge(claim, binary: "pacat", facts: .init(executable: "mpv", connected: true))
    claims.forgetAll()
    #expect(claims.marked(Self.pacat, client: 3, pipewire: false) == Self.pacat)
  }

  @Test(
    "a claim that fails as a departed client's would (its process gone, or holding no connection) waits unreported for a second look, which is final; a wrong program is final at once (docs/apps.md Sessions of other programs)"
  )
  func secondLook_forADepartedClient() throws {
    var claims = ProcessClaims()
    let claim = try #require(claims.unjudged(Self.pacat, client: 3, pipewire: false))
    let left = ProcessClaims.Facts(executable: "pacat", connected: false)
    #expect(claims.judge(claim, binary: "pacat", facts: left) == .looksAgain)
    #expect(claims.waits(Self.pacat, client: 3, pipewire: false))
    #expect(claims.waits(client: 3))
    #expect(claims.marked(Self.pacat, client: 3, pipewire: false) == Self.pacat)
    // The second look: still failing, it is the verdict, and the stream is reported marked.
    #expect(claims.unjudged(Self.pacat, client: 3, pipewire: false) == claim)
    #expect(
      claims.judge(claim, binary: "pacat", facts: left)
        == .fails("process 4711 holds no connection to the server"))
    #expect(!claims.waits(Self.pacat, client: 3, pipewire: false))
    #expect(
      claims.marked(Self.pacat, client: 3, pipewire: false)[ServerStream.unverifiedProcessKey]
        == "4711")
    // A gone process waits too, and checks out if it was only a slow look.
    let other = try #require(claims.unjudged(Self.pacat, client: 5, pipewire: false))
    #expect(
      claims.judge(other, binary: "pacat", facts: .init(executable: nil, connected: nil))
        == .looksAgain)
    #expect(
      claims.judge(other, binary: "pacat", facts: .init(executable: "pacat", connected: true))
        == .checksOut)
    #expect(!claims.waits(client: 5))
    // Another program than the stream says is no departure: final at once.
    let impostor = try #require(claims.unjudged(Self.pacat, client: 6, pipewire: false))
    #expect(
      claims.judge(impostor, binary: "pacat", facts: .init(executable: "mpv", connected: true))
        == .fails("process 4711 runs 'mpv', the stream says 'pacat'"))
    // A client that left is forgotten with its wait.
    let gone = try #require(claims.unjudged(Self.pacat, client: 7, pipewire: false))
    claims.judge(gone, binary: "pacat", facts: left)
    claims.keep(clients: [3, 5, 6])
    #expect(!claims.waits(client: 7))
  }

  @Test(
    "on PipeWire only pipewire-pulse's clients are judged by /proc; a native client's claim is checked against its pipewire.sec.pid (docs/apps.md On the server)"
  )
  func pipewire_nativeAgainstSecPid() {
    let native = ["application.process.id": "4711", "application.process.binary": "pw-cat"]
    #expect(ProcessClaims.claim(native, client: 7, pipewire: true) == nil)
    var pulse = native
    pulse["client.api"] = "pipewire-pulse"
    #expect(ProcessClaims.claim(pulse, client: 7, pipewire: true) != nil)
    let client = PulseClientInfo(
      index: 7, properties: ["pipewire.sec.pid": "5000", "application.process.id": "5000"])
    // A native stream that names another process is marked; one that names none gets the
    // kernel's pid; one that names its own is left as it is.
    #expect(client.completing(native)[ServerStream.unverifiedProcessKey] == "4711")
    #expect(client.completing([:])["application.process.id"] == "5000")
    let own = client.completing(["application.process.id": "5000"])
    #expect(own[ServerStream.unverifiedProcessKey] == nil)
    // pipewire-pulse's own clients carry its pid as pipewire.sec.pid: that says nothing.
    let pulseClient = PulseClientInfo(
      index: 8, properties: ["pipewire.sec.pid": "900", "client.api": "pipewire-pulse"])
    #expect(pulseClient.completing(pulse)[ServerStream.unverifiedProcessKey] == nil)
    #expect(PulseClientInfo.needsClient(native, native: true))
    #expect(!PulseClientInfo.needsClient(pulse, native: true))
    #expect(!PulseClientInfo.needsClient(native, native: false))
  }

  @Test(
    "the kernel's word: this process runs this test's program and holds the socket it connected to a listening one (docs/apps.md Sessions of other programs)"
  )
  func processSockets_readThisProcess() throws {
    let pid = getpid()
    let name = try #require(ProcessSockets.executableName(of: pid))
    #expect(CommandLine.arguments[0].hasSuffix(name))
    // A listening socket of the test's own, and a client connected to it.
    let folder = try TemporaryFolder.make()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let path = folder + "/listen.sock"
    let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(listener) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
    }
    let size = socklen_t(MemoryLayout<sockaddr_un>.size)
    #expect(
      withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, size) }
      } == 0)
    #expect(listen(listener, 4) == 0)
    #expect(ProcessSockets.clientsConnected(to: path)?.isEmpty == true)
    let client = try RawSocketClient(path: path)
    let accepted = accept(listener, nil, nil)
    defer { close(accepted) }
    try withExtendedLifetime(client) {
      let connected = try #require(ProcessSockets.clientsConnected(to: path))
      #expect(connected.count == 1)
      let mine = try #require(ProcessSockets.socketInodes(of: pid))
      #expect(!mine.isDisjoint(with: connected))
    }
  }
}
