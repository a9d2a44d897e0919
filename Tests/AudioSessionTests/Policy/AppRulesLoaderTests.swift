import AudioSession
import AudioSessionTestSupport
import Foundation
import Testing

// docs/apps.md "Rules": apps.json, read strictly like every policy file; the shipped rules cover
// every media.role PulseAudio defines and a stream without one.
@Suite struct AppRulesLoaderTests {
  static let roles = [
    "video", "music", "game", "event", "phone", "animation", "production", "a11y", "test",
  ]

  @Test(
    "the shipped rules give every PulseAudio role its own rule, and a role-less stream one (docs/apps.md Rules)"
  )
  func shippedRulesCoverRoles() throws {
    let apps = try PolicyLoader.load(directory: Repository.policies).apps
    for role in Self.roles {
      let rule = apps.rules.first { $0.matches(["media.role": role]) }
      #expect(
        rule != nil && rule?.match["media.role"] == .some(role),
        "role \(role): \(String(describing: rule?.name))")
    }
    #expect(apps.rules.first { $0.matches([:]) }?.name == "noRole")
    #expect(apps.outcome(for: ["media.role": "test"]) == .ignore)
    #expect(
      apps.outcome(for: ["media.role": "phone"])
        == .session(category: .playAndRecord, mode: .voiceChat, options: [], call: true))
    #expect(
      apps.outcome(for: ["media.role": "somethingNew"])
        == .session(category: .playback, mode: .default, options: []))
  }

  // The roles PipeWire's streams carry that pipewire-pulse passes on
  // unchanged, each with its iOS counterpart (docs/apps.md "Rules", PipeWire roles).
  @Test(
    "the shipped rules give PipeWire's own role names their iOS counterparts: navigation ducks, an assistant interrupts as Siri, speech ducks, a notification mixes, an alert interrupts as an alarm, Communication is a call (docs/apps.md Rules)",
    arguments: [
      (
        "Navigation",
        AppRules.Outcome.session(
          category: .playback, mode: .voicePrompt,
          options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
      ),
      (
        "GPS",
        .session(
          category: .playback, mode: .voicePrompt,
          options: [.duckOthers, .interruptSpokenAudioAndMixWithOthers])
      ),
      ("Assistant", .session(category: .playback, mode: .spokenAudio, options: [])),
      ("Speech", .session(category: .playback, mode: .spokenAudio, options: [.duckOthers])),
      ("Accessibility", .session(category: .playback, mode: .spokenAudio, options: [.duckOthers])),
      ("Notification", .session(category: .ambient, mode: .default, options: [])),
      ("Alert", .session(category: .playback, mode: .default, options: [])),
      ("Emergency", .session(category: .playback, mode: .default, options: [])),
      ("Alarm", .session(category: .playback, mode: .default, options: [])),
      (
        "Communication",
        .session(
          category: .playAndRecord, mode: .voiceChat, options: [], call: true)
      ),
      ("Phone", .session(category: .playAndRecord, mode: .voiceChat, options: [], call: true)),
      ("Multimedia", .session(category: .playback, mode: .default, options: [])),
      ("Music", .session(category: .playback, mode: .default, options: [])),
      ("Movie", .session(category: .playback, mode: .moviePlayback, options: [])),
      ("Game", .session(category: .ambient, mode: .default, options: [])),
      (
        "Production",
        .session(
          category: .playAndRecord, mode: .default, options: [.mixWithOthers])
      ),
      ("Test", .ignore),
    ])
  func shippedPipeWireRoles(role: String, expected: AppRules.Outcome) throws {
    let apps = try PolicyLoader.load(directory: Repository.policies).apps
    #expect(apps.outcome(for: ["media.role": role]) == expected)
    // Its own rule, not the fall-through for unknown roles.
    #expect(apps.rule(for: ["media.role": role])?.match["media.role"] == .some(role))
  }

  @Test(
    "the shipped desktop defaults: speech ducks, a media player is non-mixable, a program that declares nothing mixes, one that plays and records is a call (docs/apps.md Rules)"
  )
  func shippedDesktopDefaults() throws {
    let apps = try PolicyLoader.load(directory: Repository.policies).apps
    let spoken = AppRules.Outcome.session(
      category: .playback, mode: .spokenAudio, options: [.duckOthers])
    // What espeak-ng and speech-dispatcher's streams carry (measured on Debian 12, PulseAudio
    // 16.1: `pactl list sink-inputs`).
    for speech in [
      ["application.name": "eSpeak", "application.process.binary": "espeak-ng"],
      [
        "application.name": "speech-dispatcher-espeak-ng",
        "application.process.binary": "speech-dispatcher",
      ],
      ["application.name": "speech-dispatcher-dummy", "application.process.binary": "sd_dummy"],
    ] {
      #expect(apps.outcome(for: speech) == spoken, "\(speech)")
    }
    // speech-dispatcher's processes are one app (docs/apps.md Speech); espeak-ng is a program.
    #expect(
      apps.rule(for: [
        "application.name": "speech-dispatcher-dummy", "application.process.binary": "sd_dummy",
      ])?.app
        == "speech-dispatcher")
    #expect(
      apps.rule(for: [
        "application.name": "speech-dispatcher-espeak-ng",
        "application.process.binary": "speech-dispatcher",
      ])?.app
        == "speech-dispatcher")
    #expect(
      apps.rules.filter { $0.app == "speech-dispatcher" }.map(\.inactiveAfterSilence)
        == [1000, 1000])
    #expect(
      apps.rule(for: ["application.name": "eSpeak", "application.process.binary": "espeak-ng"])
        .map { $0.app == nil } == true)
    let mpv = ["application.name": "mpv", "application.process.binary": "mpv"]
    #expect(
      apps.outcome(for: mpv)
        == .session(category: .playback, mode: .default, options: [.mixWithOthers]))
    #expect(
      apps.outcome(for: mpv.merging([AppFacts.playerKey: "mpris"]) { $1 })
        == .session(category: .playback, mode: .default, options: []))
    let both = [AppFacts.playsKey: "yes", AppFacts.recordsKey: "yes"]
    #expect(
      apps.outcome(for: both.merging(["audiosession.direction": "playback"]) { $1 })
        == .session(category: .playAndRecord, mode: .voiceChat, options: [], call: true))
    // A production program that records and plays declares its role, and stays one.
    #expect(
      apps.outcome(for: both.merging(["media.role": "production"]) { $1 })
        == .session(category: .playAndRecord, mode: .default, options: [.mixWithOthers]))
  }

  /// A copy of the repository's policies with `apps.json` replaced.
  static func directory(apps: String?) throws -> String {
    let folder = NSTemporaryDirectory() + "apps-\(UUID().uuidString)"
    try FileManager.default.copyItem(atPath: Repository.policies, toPath: folder)
    let path = folder + "/apps.json"
    try FileManager.default.removeItem(atPath: path)
    if let apps { try apps.write(toFile: path, atomically: true, encoding: .utf8) }
    return folder
  }

  func problems(_ apps: String) throws -> [String] {
    let folder = try Self.directory(apps: apps)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    do {
      _ = try PolicyLoader.load(directory: folder)
      return []
    } catch {
      return error.problems.map(\.description)
    }
  }

  @Test("without apps.json there are no app rules (docs/apps.md Rules)")
  func optionalFile() throws {
    let folder = try Self.directory(apps: nil)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    #expect(try PolicyLoader.load(directory: folder).apps.rules.isEmpty)
  }

  @Test(
    "a rule may give a route-sharing policy; an unknown one is reported (docs/apps.md Rules; docs/avaudiosession.md §13.3)"
  )
  func policyKey() throws {
    let directory = try Self.directory(
      apps: """
        {"schemaVersion": 1, "rules": [
          {"name": "books", "match": {"application.name": "Books"}, "category": "playback",
           "mode": "spokenAudio", "policy": "longFormAudio", "source": "s"}
        ]}
        """)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let table = try PolicyLoader.load(directory: directory)
    #expect(
      table.apps.rules.first?.outcome
        == .session(category: .playback, mode: .spokenAudio, options: [], policy: .longFormAudio))
    let found = try problems(
      """
      {"schemaVersion": 1, "rules": [
        {"name": "a", "match": {}, "category": "playback", "policy": "shared", "source": "s"},
        {"name": "b", "match": {}, "ignore": true, "policy": "longFormAudio", "source": "s"}
      ]}
      """)
    #expect(found.count == 2, "\(found.joined(separator: " | "))")
    #expect(
      found.contains { $0.hasPrefix("apps.json: rules[0].policy:") && $0.contains("longFormAudio") }
    )
    #expect(found.contains { $0.hasPrefix("apps.json: rules[1].policy:") })
  }

  @Test("bad rules are reported with file and key path, every one (docs/contract.md Bad input)")
  func strictValidation() throws {
    let found = try problems(
      """
      {"schemaVersion": 1, "rules": [
        {"name": "a", "match": {"media.role": 3}, "category": "playback", "source": "s"},
        {"name": "b", "match": {}, "category": "loud", "source": "s"},
        {"name": "c", "match": {}, "ignore": true, "mode": "default", "source": "s"},
        {"name": "d", "match": {}, "source": "s"},
        {"name": "e", "match": {}, "category": "ambient", "source": "s", "colour": "red"},
        {"name": "e", "match": {}, "category": "ambient", "source": "s"},
        {"name": "f", "match": {}, "category": "playAndRecord", "call": "yes", "source": "s"},
        {"name": "g", "match": {}, "ignore": true, "call": true, "source": "s"},
        {"name": "h", "match": {"a": "1"}, "category": "playback", "app": "speech dispatcher", "source": "s"},
        {"name": "i", "match": {"a": "2"}, "ignore": true, "app": "speechd", "source": "s"},
        {"name": "j", "match": {"a": "3"}, "category": "playback", "inactiveAfterSilence": 50,
         "source": "s"},
        {"name": "k", "match": {"a": "4"}, "category": "playback", "inactiveAfterSilence": "1s",
         "source": "s"}
      ]}
      """)
    // Twelve bad rules, and the second 'e', which the first hides (docs/apps.md "Rules").
    #expect(found.count == 13, "\(found.joined(separator: " | "))")
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[5].match:") && $0.contains("can never apply")
      }, "\(found.joined(separator: " | "))")
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[0].match.media.role:") && $0.contains("expected a glob")
      })
    #expect(
      found.contains { $0.hasPrefix("apps.json: rules[1].category:") && $0.contains("playback") })
    #expect(found.contains { $0.hasPrefix("apps.json: rules[2].mode:") })
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[3].category:") && $0.contains("missing 'category'")
      })
    #expect(
      found.contains { $0.hasPrefix("apps.json: rules[4].colour:") && $0.contains("valid keys") })
    #expect(
      found.contains { $0.hasPrefix("apps.json: rules[5].name:") && $0.contains("used twice") })
    // "call" (docs/apps.md Calls) is true or false, and only beside a category.
    #expect(found.contains { $0.hasPrefix("apps.json: rules[6].call:") })
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[7].call:") && $0.contains("an ignored stream has no 'call'")
      })
    // "app" names an app session (docs/apps.md Rules): a session name, beside a category.
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[8].app:") && $0.contains("'speech dispatcher'")
      }, "\(found.joined(separator: " | "))")
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[9].app:") && $0.contains("an ignored stream has no 'app'")
      })
    // "inactiveAfterSilence" is milliseconds, 100 to 60000 (docs/apps.md Speech).
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[10].inactiveAfterSilence:") && $0.contains("found 50")
      }, "\(found.joined(separator: " | "))")
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[11].inactiveAfterSilence:")
          && $0.contains("found the string")
      }, "\(found.joined(separator: " | "))")
  }

  @Test(
    "heldAfterLastStream is whole milliseconds from 10 to 1000, beside a category; the shipped eSpeak rule holds 250 (docs/apps.md Rules, Speech)"
  )
  func heldAfterLastStream() throws {
    let found = try problems(
      """
      {"schemaVersion": 1, "rules": [
        {"name": "a", "match": {"a": "1"}, "category": "playback", "heldAfterLastStream": 5,
         "source": "s"},
        {"name": "b", "match": {"a": "2"}, "category": "playback", "heldAfterLastStream": "1s",
         "source": "s"},
        {"name": "c", "match": {"a": "3"}, "ignore": true, "heldAfterLastStream": 100,
         "source": "s"},
        {"name": "d", "match": {"a": "4"}, "category": "playback", "heldAfterLastStream": 1000,
         "source": "s"}
      ]}
      """)
    #expect(found.count == 3, "\(found.joined(separator: " | "))")
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[0].heldAfterLastStream:") && $0.contains("found 5")
          && $0.contains("from 10 to 1000")
      }, "\(found.joined(separator: " | "))")
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[1].heldAfterLastStream:") && $0.contains("found the string")
      })
    #expect(
      found.contains {
        $0.hasPrefix("apps.json: rules[2].heldAfterLastStream:")
          && $0.contains("an ignored stream has no 'heldAfterLastStream'")
      })
    let shipped = try PolicyLoader.load(directory: Repository.policies).apps
    #expect(
      shipped.rule(for: ["application.name": "eSpeak", "application.process.binary": "espeak-ng"])?
        .heldAfterLastStream == 250)
  }
}
