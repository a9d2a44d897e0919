import AudioSession
import AudioSessionArbiter
import AudioSessionArbiterTestSupport
import PropertyBased
import Testing

/// Random desktop histories (``DesktopHistory``) acted out on the arbiter (docs/arbiter.md),
/// checked after each act.
@Suite struct DesktopHistoryPropertyTests {
  @Test(
    "over random desktop histories with two calls at once, daemon kills and server restarts: a call is always heard (one of two holds the other), call active holds exactly while a call runs, a player is played only if we paused it and the user has not touched it since, a player the user plays is heard unless a call runs, and once nothing interrupts nothing is left paused, muted or ducked (docs/arbiter.md, docs/mpris.md)"
  )
  func invariants() async throws {
    let start = try await Desktop.start()
    await propertyCheck(count: 1000, input: DesktopHistory.histories) { codes in
      var desktop = start
      var world = DesktopHistory.World()
      desktop.feed(DesktopHistory.playersSnapshot(world))
      desktop.feed(.streams(.snapshot([])))
      for code in codes {
        if code == DesktopHistory.daemonRestart {
          desktop = await DesktopHistory.restartDaemon(
            desktop, world, busFirst: world.restarts % 2 == 0)
          world.restarts += 1
          DesktopHistory.obey(&desktop, &world)
        } else if code == DesktopHistory.serverRestart {
          DesktopHistory.restartServer(&desktop, &world)
        } else if code == DesktopHistory.timePasses {
          desktop.passTime()
          DesktopHistory.obey(&desktop, &world)
        } else {
          DesktopHistory.act(code, &desktop, &world)
        }
        Self.check(desktop, world, after: code)
      }
      // Everything but the players stops: a player we paused stays paused only while another
      // plays.
      for index in 2..<DesktopHistory.cast.count where world.running.contains(index) {
        DesktopHistory.stop(index, &desktop, &world)
      }
      desktop.passTime()
      DesktopHistory.obey(&desktop, &world)
      if !world.ours.isEmpty {
        #expect(world.status.values.contains(.playing), "ours \(world.ours), codes \(codes)")
      }
      let left = desktop.arbiter.engine.status().sessions.filter { $0.muted || $0.ducked }
      #expect(left.isEmpty, "left muted or ducked: \(left.map(\.name)), codes \(codes)")
      #expect(world.problems.isEmpty, "\(world.problems), codes \(codes)")
    }
  }

  static func check(_ desktop: Desktop, _ world: DesktopHistory.World, after code: Int) {
    #expect(desktop.callActive == !world.calls.isEmpty, "after \(code)")
    // A call is heard: one call alone is never interrupted; of two, one holds the other, as a
    // call waiting does (the newest, unless a restarted daemon found both at once).
    let heard = world.calls.filter { index in
      guard
        let session = desktop.arbiter.streams.assignment.sessions[
          DesktopHistory.cast[index].streams[0].key]
      else { return false }
      return desktop.session(session)?.interrupted == false
    }
    #expect(world.calls.isEmpty || !heard.isEmpty, "no call heard after \(code)")
  }
}
