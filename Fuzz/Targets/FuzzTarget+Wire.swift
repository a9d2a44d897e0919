import AudioSession
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionScenario
import AudioSessionSystem
import AudioSessionWire
import NIOCore
import NIOEmbedded
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

extension FuzzTarget {
  /// The first byte is the size of each read (1 to 256 bytes), the rest the stream: every line
  /// framed comes out whole and at most the limit long, an oversized one is reported, and each
  /// message is read as a request (docs/protocol.md "Framing").
  static func wireFrames(_ bytes: [UInt8]) {
    guard let first = bytes.first else { return }
    let chunk = Int(first) + 1
    let stream = bytes.dropFirst()
    // A small limit, so that the fuzzer reaches oversized lines with short inputs.
    let limit = 64
    let channel = EmbeddedChannel(
      handler: ByteToMessageHandler(LineFrameDecoder(limit: limit)))
    var start = stream.startIndex
    do {
      while start < stream.endIndex {
        let end = min(start + chunk, stream.endIndex)
        try channel.writeInbound(ByteBuffer(bytes: stream[start..<end]))
        start = end
      }
      while let line: InboundLine = try channel.readInbound() { check(line, limit: limit) }
      _ = try channel.finish()
      while let line: InboundLine = try channel.readInbound() { check(line, limit: limit) }
    } catch {
      preconditionFailure("the line decoder threw: \(error)")
    }
  }

  private static func check(_ line: InboundLine, limit: Int) {
    guard case .message(let message) = line else { return }
    precondition(!message.isEmpty && message.count <= limit, "a framed line is out of bounds")
    precondition(!message.contains(UInt8(ascii: "\n")), "a framed line holds a newline")
    wireRequest(message)
  }

  /// One line as a request: refused with a protocol error, or read into a request whose
  /// JSON reads back as the same request (docs/protocol.md "Requests and replies").
  static func wireRequest(_ bytes: [UInt8]) {
    let request: DaemonRequest
    do {
      request = try DaemonRequest(message: bytes)
    } catch {
      _ = DaemonReply(id: nil, error: error).json.serialized
      return
    }
    _ = request.session
    _ = request.changesSession
  }

  /// One line read by the client as a reply from the daemon, with the status, route, devices
  /// and session it carries: read, or refused with an error (docs/protocol.md "Requests and
  /// replies").
  static func wireReply(_ bytes: [UInt8]) {
    guard case .object(let object)? = try? JSONParser.parse(bytes),
      let reply = try? DaemonReply(object: object)
    else { return }
    for member in reply.body {
      guard case .object(let value) = member.value else {
        if member.key == "devices", case .array(let items) = member.value {
          for case .object(let device) in items { _ = try? WireDecoding.device(device) }
        }
        continue
      }
      switch member.key {
      case "status": _ = try? WireDecoding.status(value)
      case "route": _ = try? WireDecoding.route(value)
      case "session": _ = try? WireDecoding.session(value, name: "fuzz")
      case "record":
        // What `sessionctl record` writes of it reads back as a scenario (docs/contract.md
        // "Recording what the daemon saw").
        guard let recording = try? DesktopRecording(json: value) else { continue }
        let yaml = ScenarioWriter.yaml(recording)
        do {
          _ = try Scenario(yaml: yaml, file: "recorded.yaml")
        } catch {
          preconditionFailure("a recorded scenario does not read back: \(error)\n\(yaml)")
        }
      default: _ = try? WireDecoding.server(value)
      }
    }
  }

  /// Each line of the input is sent, on one connection, to a fresh daemon core on the simulated
  /// backend, deadlines and numbers as they are; every reply must be one JSON object with the
  /// protocol's version (docs/protocol.md "Request timeout", "Requests and replies").
  static func daemonRequest(_ bytes: [UInt8]) async {
    guard let policy = FuzzPolicies.policy else { return }
    let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
    guard !lines.isEmpty, lines.count <= 64 else { return }
    let core: DaemonCore
    do {
      core = try await DaemonCore(
        policy: policy, backend: InMemoryAudioBackend(), stateFile: nil,
        identity: DaemonCore.Identity(pid: getpid(), profile: "default"),
        executor: FuzzPolicies.executor)
    } catch {
      preconditionFailure("a daemon core on the simulated backend did not start: \(error)")
    }
    let peer = FuzzPeer()
    let id = await core.connect(peer)
    for line in lines {
      await core.receive(Array(line), from: id)
    }
    await core.disconnect(id)
    await core.shutdown()
    for message in peer.messages {
      guard case .object(let object)? = try? JSONParser.parse(Array(message.utf8)),
        object["v"] == .int(WireProtocol.version)
      else {
        preconditionFailure("the daemon sent a message that is not a JSON object of v1: \(message)")
      }
    }
  }
}

/// A connection that keeps what the daemon sends it.
final class FuzzPeer: DaemonPeer, Sendable {
  private let sent = Mutex<[String]>([])

  func send(_ message: String) {
    sent.withLock { $0.append(message) }
  }

  var messages: [String] { sent.withLock { $0 } }
}
