import AudioSession
import AudioSessionArbiterTestSupport
import AudioSessionScenario
import AudioSessionTestSupport
import AudioSessionWire
import PropertyBased
import Synchronization
import Testing

@testable import AudioSessionArbiter
@testable import SessionctlCommands

/// Record → replay over random desktop histories, and the commands a client sends recorded as
/// steps that parse back (docs/contract.md "Recording what the daemon saw", "Scenario files").
@Suite struct RecordPropertyTests {
  @Test(
    "over random desktop histories (media players, one that never corks, calls, speech held after its stream, the user's play and pause, daemon and server restarts, time passing), the scenario written from the record replays the same notifications and player commands whenever the record says it is exact, and nearly all are (docs/contract.md Recording what the daemon saw)"
  )
  func replay_decidesAsTheDaemonDid() async throws {
    let exact = RecordCounter()
    await propertyCheck(count: 300, input: DesktopHistory.histories) { codes in
      guard let desktop = try? await RecordReplay.act(codes),
        let recording = desktop.recorder?.recording()
      else {
        Issue.record("the history \(codes) could not be acted out")
        return
      }
      let entries: [TranscriptEntry]
      do {
        entries = try await RecordReplay.replay(recording)
      } catch {
        Issue.record("\(error)\n\(RecordReplay.yaml(recording))")
        return
      }
      guard recording.isExact else { return }
      exact.add()
      let replayed = RecordReplay.decisions(entries, setupSteps: recording.setupSteps)
      let live = RecordReplay.decisions(desktop)
      #expect(
        replayed == live,
        "codes \(codes)\n--- file\n\(RecordReplay.yaml(recording))--- live\n\(live)\n--- replay\n\(replayed)"
      )
    }
    #expect(exact.value >= 240, "only \(exact.value) of 300 records were exact")
  }

  @Test(
    "every command a client sends that changes a session is a step whose words parse back to that command (docs/contract.md Recording what the daemon saw, Scenario files)"
  )
  func commandWords_parseBack() async throws {
    let catalog = try TestPolicies.table().devices
    await propertyCheck(count: 500, input: Gen<DaemonRequest.Operation>.operation) { operation in
      guard case .command(let command) = operation, !command.isQuery,
        let (session, words) = DesktopRecorder.words(of: command)
      else { return }
      // A device the daemon made is one of the catalog's (the backend refuses others).
      if case .simulate(.plug(let preset)) = command, catalog.presets[preset] == nil { return }
      let line = ScenarioWriter.line(session: session, words: words) {
        StepParser.sessionNameProblem($0) == nil
      }
      var expected = command
      if case .input(.setInputGain(let name, let gain)) = command {
        // As typed: clamped to 0…1 (docs/contract.md Commands).
        expected = .input(.setInputGain(session: name, min(1, max(0, gain))))
      }
      do throws(StepParser.Problem) {
        let parsed = try StepParser.command(line, catalog: catalog)
        #expect(parsed == expected, "\(line)")
      } catch {
        Issue.record("'\(line)' does not parse: \(error.message)")
      }
    }
  }
}

/// A count shared by a property's cases.
final class RecordCounter: Sendable {
  private let count = Mutex(0)
  func add() { count.withLock { $0 += 1 } }
  var value: Int { count.withLock { $0 } }
}
