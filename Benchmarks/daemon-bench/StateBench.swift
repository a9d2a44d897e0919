// Section 4 of the daemon bench (state that scales: docs/protocol.md "The state file"): a daemon
// holding 10,000 sessions for the command line.
//
// - restore: a state file of 10,000 sessions (half of them configured) read and the sessions
//   recreated, from the core's start to its being ready (target under 0.5 s);
// - one `set` of a held session with 10,000 held, from a client over the socket, reply included,
//   the change appended to the state file's journal before the reply (target p99 under 2 ms);
// - `status` with 10,000 sessions: the reply (about 9 MB) over the socket, and `sessionctl
//   status` one-shot, which must answer within its 5 s request timeout.
import AudioSession
import AudioSessionDaemon
import AudioSessionHost
import AudioSessionWire
import BenchGoals
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

let heldSessions = 10_000
let setTrials = 2_000

func stateBench(folder: String, policy: Policy, sessionctl: String) async {
  let stateFolder = folder + "/state"
  let socket = stateFolder + "/daemon.sock"
  let statePath = WireProtocol.defaultStatePath(socketPath: socket)
  mkdir(stateFolder, 0o700)
  let categories: [AudioSession.Category] = [.playback, .ambient, .soloAmbient, .playAndRecord]
  let entries = (0..<heldSessions).map { number in
    SessionStore.Entry(
      name: "held\(number)",
      configuration: number % 2 == 0
        ? .initial
        : SessionConfiguration(
          category: categories[number % categories.count], mode: .default, options: [],
          policy: .default))
  }
  do {
    try SessionStore(path: statePath).save(entries)
  } catch {
    fail("cannot write the state file: \(error)")
  }
  let size = (try? FileManager.default.attributesOfItem(atPath: statePath)[.size] as? Int) ?? 0

  // Restore: the core's start, the state file read and every session made.
  let started = nanoseconds()
  let core: DaemonCore
  do {
    core = try await DaemonCore(
      policy: policy, backend: InMemoryAudioBackend(), stateFile: statePath,
      identity: DaemonCore.Identity(pid: getpid(), profile: policy.profile.name))
  } catch {
    fail("state bench: \(error)")
  }
  let restore = nanoseconds() - started
  let restored = await core.status().sessions.count
  guard restored == heldSessions else {
    fail("state bench: \(restored) sessions restored of \(heldSessions)")
  }
  print(
    "restore of \(heldSessions) held sessions (state file \(size / 1024) KiB): "
      + "\(milliseconds(restore)) (target under 500 ms: \(restore < 500_000_000 ? "met" : "NOT met"))"
  )
  goals.check(
    "4. restore of \(heldSessions) held sessions < 500 ms", milliseconds(restore),
    met: restore < 500_000_000)

  let server: DaemonServer
  do {
    server = try await DaemonServer.start(core: core, socketPath: socket)
  } catch {
    fail("state bench: \(error)")
  }
  guard let client = try? DaemonConnection(socketPath: socket) else {
    fail("state bench: cannot connect")
  }

  // One `set` of a held session, with 10,000 held.
  var setTimes: [UInt64] = []
  var generator = SystemRandomNumberGenerator()
  for trial in 0..<setTrials {
    let name = "held\(Int.random(in: 0..<heldSessions, using: &generator))"
    let category = categories[trial % categories.count]
    let start = nanoseconds()
    guard
      let reply = try? client.request(
        .command(.input(.setCategory(session: name, category: category, mode: nil, options: []))))
    else { fail("state bench: set failed") }
    setTimes.append(nanoseconds() - start)
    guard reply.error == nil, reply["notSaved"] == nil else {
      fail("state bench: set: \(reply.json.serialized)")
    }
  }
  let setP99 = percentile(setTimes, 99)
  print(
    "one set with \(heldSessions) held, over the socket: p50 \(milliseconds(percentile(setTimes, 50))), "
      + "p99 \(milliseconds(setP99)), max \(milliseconds(setTimes.max() ?? 0)) over \(setTrials) "
      + "(target p99 under 2 ms: \(setP99 < 2_000_000 ? "met" : "NOT met"))")
  goals.check(
    "4. one set with \(heldSessions) held, p99 < 2 ms", "p99 \(milliseconds(setP99))",
    met: setP99 < 2_000_000)

  // `status` with 10,000 sessions: the library's request, then sessionctl's one-shot.
  let statusStart = nanoseconds()
  guard let reply = try? client.request(.command(.status)),
    case .object(let status)? = reply["status"], case .object(let sessions)? = status["sessions"]
  else { fail("state bench: status with \(heldSessions) sessions did not answer") }
  let statusTime = nanoseconds() - statusStart
  let bytes = reply.json.serialized.utf8.count
  let oneShot = timedRun([sessionctl, "status", "--json", "--socket", socket])
  print(
    "status with \(sessions.members.count) sessions: \(milliseconds(statusTime)) over the "
      + "socket (\(bytes / 1024) KiB reply); sessionctl status --json one-shot "
      + "\(milliseconds(oneShot)) (target: answers: met)")
  goals.check(
    "4. status with \(heldSessions) sessions answers",
    "\(milliseconds(statusTime)), one-shot \(milliseconds(oneShot))", met: true)
  client.close()
  await server.stop()
}
