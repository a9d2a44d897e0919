import AudioSession
import AudioSessionTestSupport
import Foundation
import Testing

/// The shape of the repository's policy files, read with Foundation's JSONSerialization (not the
/// loader), so the loader's own reading is checked too (docs/style.md §3.5 shape tests).
@Suite struct PolicyFilesShapeTests {
  static func json(_ file: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: Repository.policies + "/" + file))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
  }

  static func object(_ value: Any?) throws -> [String: Any] {
    try #require(value as? [String: Any])
  }

  /// Whether `text` is one of `words` or `switch:` followed by a letter, then letters, digits, '_'.
  static func isCell(_ text: String, _ words: Set<String>) -> Bool {
    if words.contains(text) { return true }
    guard text.hasPrefix("switch:") else { return false }
    let name = text.dropFirst("switch:".count)
    return name.first?.isLetter == true
      && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
  }

  /// The switches every profile must set besides the cell switches (PolicyTable.ProfileSwitches).
  static let fixedSwitches: Set<String> = [
    "defaultToSpeakerOverridesHeadphones", "enforceAdvisoryModes", "invalidOptionError",
    "endedAfterCall", "endedWithoutNotifyOthers", "rejectExplicitImpliedOptions",
    "noResumeAfterPrivateRouteLost", "deactivateWithRunningIOIsBusy",
    "suspensionReasonAppWasSuspended", "lifecycleNotifications",
    "callBlocksPlaybackActivation", "readBackModeImpliedOptions", "categoryChangeWhileInactive",
  ]

  @Test(
    "every policy file declares schemaVersion 1 (docs/style.md §3.5)",
    arguments: PolicyLoader.fileNames)
  func file_everyFile_declaresSchemaVersion1(file: String) throws {
    #expect(try Self.json(file)["schemaVersion"] as? Int == 1)
  }

  @Test(
    "every category has a row with a cell from the vocabulary for every option (docs/avaudiosession.md §4.1)"
  )
  func categories_everyCategory_hasEveryOptionCell() throws {
    let rows = try Self.object(try Self.json("categories.json")["categories"])
    #expect(Set(rows.keys) == Set(Category.allCases.map(\.name)))
    for category in Category.allCases {
      let row = try Self.object(rows[category.name])
      let cells = try Self.object(row["options"])
      #expect(Set(cells.keys) == Set(CategoryOption.allCases.map(\.name)), "\(category.name)")
      for (option, cell) in cells {
        let text = try #require(cell as? String)
        #expect(
          Self.isCell(text, ["allowed", "implied", "forbidden"]),
          "\(category.name).\(option): \(text)")
      }
      #expect((row["source"] as? String)?.contains("§") == true, "\(category.name) cites the spec")
    }
  }

  @Test(
    "every mode has a row with a cell from the vocabulary for every category (docs/avaudiosession.md §3)"
  )
  func modes_everyMode_hasEveryCategoryCell() throws {
    let rows = try Self.object(try Self.json("modes.json")["modes"])
    #expect(Set(rows.keys) == Set(AudioSession.Mode.allCases.map(\.name)))
    for mode in AudioSession.Mode.allCases {
      let row = try Self.object(rows[mode.name])
      let cells = try Self.object(row["categories"])
      #expect(Set(cells.keys) == Set(Category.allCases.map(\.name)), "\(mode.name)")
      for (category, cell) in cells {
        let text = try #require(cell as? String)
        #expect(
          Self.isCell(text, ["allowed", "advisory", "forbidden"]),
          "\(mode.name).\(category): \(text)")
      }
      #expect((row["source"] as? String)?.contains("§") == true, "\(mode.name) cites the spec")
    }
  }

  @Test(
    "every option has a row, and every routes row names a category (docs/avaudiosession.md §4.1, §7.3)"
  )
  func optionsAndRoutes_everyCase_hasRow() throws {
    let options = try Self.object(try Self.json("options.json")["options"])
    #expect(Set(options.keys) == Set(CategoryOption.allCases.map(\.name)))
    for (name, row) in options {
      #expect((try Self.object(row)["source"] as? String)?.contains("§") == true, "\(name)")
    }
    let routes = try Self.object(try Self.json("routes.json")["categories"])
    #expect(Set(routes.keys) == Set(Category.allCases.map(\.name)))
  }

  @Test(
    "every profile sets every fixed switch and every switch a cell names (docs/avaudiosession.md §12)"
  )
  func profiles_everyProfile_setsEverySwitch() throws {
    var cellSwitches: Set<String> = []
    for (file, table, cells) in [
      ("categories.json", "categories", "options"), ("modes.json", "modes", "categories"),
    ] {
      for (_, row) in try Self.object(try Self.json(file)[table]) {
        for (_, cell) in try Self.object(try Self.object(row)[cells]) {
          if let text = cell as? String, text.hasPrefix("switch:") {
            cellSwitches.insert(String(text.dropFirst("switch:".count)))
          }
        }
      }
    }
    #expect(
      cellSwitches == [
        "ambientAcceptsDuckOthers", "videoChatAllowsRecord", "multiRouteMixable",
        "recordAcceptsDuckOthers",
      ])
    let profiles = try Self.object(try Self.json("profiles.json")["profiles"])
    #expect(profiles.count >= 3)
    // A profile sets what it changes and inherits the rest (policies/README.md profiles.json).
    func resolved(_ name: String) throws -> [String: Any] {
      let profile = try Self.object(profiles[name])
      let own = try Self.object(profile["switches"])
      guard let parent = profile["inherits"] as? String else { return own }
      return try resolved(parent).merging(own) { _, mine in mine }
    }
    for (name, profile) in profiles {
      let switches = try resolved(name)
      #expect(Set(switches.keys) == Self.fixedSwitches.union(cellSwitches), "\(name)")
      if let parent = try Self.object(profile)["inherits"] as? String {
        let own = try Self.object(try Self.object(profile)["switches"])
        let inherited = try resolved(parent)
        for (key, value) in own {
          #expect(
            "\(value)" != inherited[key].map { "\($0)" },
            "\(name).\(key) restates \(parent)'s value")
        }
      }
      for cellSwitch in cellSwitches {
        #expect(switches[cellSwitch] is Bool, "\(name).\(cellSwitch) is a boolean")
      }
    }
  }

  @Test(
    "every holder × incoming pair gets the spec's action (docs/avaudiosession.md §2, §5.1 A2–A3)"
  )
  func interactions_everyPair_hasSpecAction() throws {
    let rules = try #require(try Self.json("interactions.json")["rules"] as? [[String: Any]])
    let last = try #require(rules.last)
    #expect(try Self.object(last["incoming"]).isEmpty)
    #expect(try Self.object(last["holder"]).isEmpty)
    let policy = try Policy(table: PolicyLoader.load(directory: Repository.policies))
    for holder in Category.allCases {
      for incoming in Category.allCases {
        // Default configurations: only ambient mixes (§2); non-mixable interrupts non-mixable
        // (A2); record silences every output (§2); everything else mixes (A3).
        let expected: InteractionAction =
          incoming != .ambient && holder != .ambient
          ? .interrupt
          : incoming == .record && ![.record, .audioProcessing].contains(holder) ? .mute : .mix
        let action = policy.action(
          incoming: policy.traits(SessionConfiguration(category: incoming)),
          holder: policy.traits(SessionConfiguration(category: holder)))
        #expect(action == expected, "\(incoming.name) activating, \(holder.name) holding")
      }
    }
  }

  @Test("the loaded table has a row for every CaseIterable case (docs/style.md §3.5)")
  func table_loaded_hasEveryCase() throws {
    let table = try PolicyLoader.load(directory: Repository.policies)
    #expect(Set(table.categories.keys) == Set(Category.allCases))
    #expect(Set(table.modes.keys) == Set(AudioSession.Mode.allCases))
    #expect(Set(table.options.keys) == Set(CategoryOption.allCases))
    for category in Category.allCases {
      let cells = table.categories[category]?.options.keys.map { $0 } ?? []
      #expect(Set(cells) == Set(CategoryOption.allCases), "\(category.name)")
    }
    for mode in AudioSession.Mode.allCases {
      let cells = table.modes[mode]?.categories.keys.map { $0 } ?? []
      #expect(Set(cells) == Set(Category.allCases), "\(mode.name)")
    }
    #expect(Set(table.interactions.silencedBy.keys) == [.silentSwitch, .screenLock])
  }
}
