import ArgumentParser
import AudioSession
import AudioSessionPulse
import AudioSessionSystem
import AudioSessionTestSupport
import AudioSessionWire
import Foundation
import Testing

@testable import SessionctlCommands

/// `sessionctl policy check | show | table`, in process (docs/contract.md commands;
/// docs/style.md §3.8).
@Suite struct PolicyCommandTests {
  func parse<Command: ParsableCommand>(_ arguments: [String], as type: Command.Type) throws
    -> Command
  {
    return try #require(try Sessionctl.parseAsRoot(arguments) as? Command)
  }

  @Test(
    "sessionctl policy --help lists the three commands and where the policies are found (docs/install.md)"
  )
  func help_policy_isGolden() {
    #expect(
      Sessionctl.helpMessage(for: Sessionctl.PolicyCommand.self, columns: 80) == """
        OVERVIEW: Check and read the policy tables.

        The policy tables (which modes and options each category accepts, who
        interrupts or ducks whom, routes, device presets and the profiles for disputed
        behaviour) are JSON files in a policy directory, documented in its README.md.

        Without --policies DIR, sessionctl uses $AUDIOSESSION_POLICIES, else
        $XDG_CONFIG_HOME/audiosession/policies (~/.config/audiosession/policies) if it
        exists, else the directory installed with it, ../share/audiosession/policies
        from its bin/ (/usr/local/share/audiosession/policies after 'make install'),
        else, for a build run from its source checkout, that checkout's policies/.
        'policy show' prints the directory used.

        USAGE: sessionctl policy <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          check                   Validate a policy directory and report every problem
                                  in it at once.
          show                    Print every policy table and the selected profile's
                                  switches.
          table                   Print the category × option and category × mode
                                  matrices for a profile.

          See 'sessionctl help policy <subcommand>' for detailed help.
        """)
  }

  @Test(
    "policy check on the repository prints one OK line with the counts (docs/contract.md Policies)")
  func check_repositoryPolicies_printsSummary() async throws {
    let command = try parse(
      ["policy", "check", Repository.policies], as: Sessionctl.PolicyCommand.Check.self)
    #expect(
      try command.output()
        == "OK: \(Repository.policies): 7 categories, 11 modes, 10 options, 5 interaction rules, "
        + "15 device presets, 8 profiles; default profile 'default'. apps.json: "
        + "\(try PolicyLoader.load(directory: Repository.policies).apps.rules.count) rules. pulse.json: "
        + "\(try PulsePolicy.load(directory: Repository.policies).ports.rules.count) port rules."
    )
  }

  @Test("policy check reports a broken pulse.json with its key path (docs/pulseaudio.md §4)")
  func check_brokenPulseJSON_listsProblem() async throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "pulse.json", replacing: "\"schemaVersion\": 1", with: "\"schemaVersion\": 1, \"bogus\": 2")
    let command = try parse(
      ["policy", "check", fixture.directory], as: Sessionctl.PolicyCommand.Check.self)
    do {
      _ = try command.output()
      Issue.record("policy check accepted a broken pulse.json")
    } catch {
      let message = Sessionctl.fullMessage(for: error, columns: 80)
      #expect(message.hasPrefix("Error: Policy directory '\(fixture.directory)' has 1 problem:"))
      #expect(message.contains("- pulse.json: bogus: unknown key 'bogus'"))
      #expect(Sessionctl.exitCode(for: error) == .failure)
    }
  }

  @Test(
    "policy check lists a broken pulse.json with the other files' problems, all at once (docs/contract.md Policies)"
  )
  func check_brokenPulseJSONAndOtherFile_listsBoth() async throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "profiles.json", replacing: "\"defaultProfile\": \"default\"", with: "\"defaultProfile\": 7")
    try fixture.edit(
      "pulse.json", replacing: "\"schemaVersion\": 1", with: "\"schemaVersion\": 1, \"bogus\": 2")
    let command = try parse(
      ["policy", "check", fixture.directory], as: Sessionctl.PolicyCommand.Check.self)
    do {
      _ = try command.output()
      Issue.record("policy check accepted a broken directory")
    } catch {
      let message = Sessionctl.fullMessage(for: error, columns: 80)
      #expect(message.hasPrefix("Error: Policy directory '\(fixture.directory)' has 2 problems:"))
      #expect(message.contains("- profiles.json: defaultProfile: expected a string"))
      #expect(message.contains("- pulse.json: bogus: unknown key 'bogus'"))
    }
  }

  @Test(
    "policy check on a broken directory lists every problem and exits 1 (docs/contract.md Policies)"
  )
  func check_brokenDirectory_listsProblemsAndFails() async throws {
    let fixture = try PolicyFixture()
    try fixture.edit(
      "categories.json", replacing: "\"duckOthers\": \"switch:ambientAcceptsDuckOthers\"",
      with: "\"duckOthers\": \"maybe\"")
    try fixture.edit(
      "profiles.json", replacing: "\"defaultProfile\": \"default\"", with: "\"defaultProfile\": 7")
    let command = try parse(
      ["policy", "check", fixture.directory], as: Sessionctl.PolicyCommand.Check.self)
    do {
      _ = try command.output()
      Issue.record("policy check accepted a broken directory")
    } catch {
      #expect(
        Sessionctl.fullMessage(for: error, columns: 80) == """
          Error: Policy directory '\(fixture.directory)' has 2 problems:
          - categories.json: categories.ambient.options.duckOthers: unknown cell 'maybe'; valid: \
          allowed, implied, forbidden, switch:<name>
          - profiles.json: defaultProfile: expected a string, found the number 7
          """)
      #expect(Sessionctl.exitCode(for: error) == .failure)
    }
  }

  @Test(
    "policy check DIR --policies OTHER is a usage error (docs/contract.md Bad input)"
  )
  func check_directoryTwice_isValidationError() throws {
    do {
      _ = try Sessionctl.parseAsRoot(["policy", "check", "a", "--policies", "b"])
      Issue.record("two directories were accepted")
    } catch {
      #expect(
        Sessionctl.message(for: error)
          == "Give the policy directory once: either as the argument or with --policies.")
      #expect(Sessionctl.exitCode(for: error) == .validationFailure)
    }
  }

  @Test("policy check with a missing directory says so (docs/contract.md Bad input)")
  func check_missingDirectory_saysSo() throws {
    let command = try parse(
      ["policy", "check", "/nonexistent/policies"], as: Sessionctl.PolicyCommand.Check.self)
    do {
      _ = try command.output()
      Issue.record("a missing directory was accepted")
    } catch {
      #expect(
        Sessionctl.fullMessage(for: error) == """
          Error: Policy directory '/nonexistent/policies' has 1 problem:
          - /nonexistent/policies: no such policy directory; give a directory that holds \
          categories.json, modes.json, options.json, interactions.json, routes.json, devices.json, \
          profiles.json
          """)
    }
  }

  @Test(
    "policy table --format markdown has the §4.1 and §3 rows (docs/avaudiosession.md §4.1, §3, §12)"
  )
  func table_markdown_containsSpecRows() throws {
    let command = try parse(
      ["policy", "table", "--format", "markdown", "--policies", Repository.policies],
      as: Sessionctl.PolicyCommand.Table.self)
    let lines = try command.output().split(separator: "\n").map(String.init)
    #expect(lines.first == "## Category options (spec §4.1), profile 'default'")
    #expect(
      lines.contains(
        """
        | Option | ambient | soloAmbient | playback | record | playAndRecord | audioProcessing | \
        multiRoute |
        """
      ))
    #expect(lines.contains("| mixWithOthers | I | ✗ | ✓ | ✗ | ✓ | ✗ | ✓* |"))
    #expect(lines.contains("| defaultToSpeaker | ✗ | ✗ | ✗ | ✗ | ✓ | ✗ | ✗ |"))
    // apps.json (docs/apps.md Rules).
    #expect(
      lines.contains(
        "| phoneCalls | media.role=phone | playAndRecord | voiceChat (makes the call) | - |"))
    #expect(lines.contains("| testTones | media.role=test | ignored |  |  |"))
    #expect(lines.contains("| noRole | no media.role | playback | default | mixWithOthers |"))
    #expect(
      lines.contains(
        "| mediaPlayers | audiosession.app.player=mpris, no media.role | playback | default | - |"))
    #expect(lines.contains("| allowBluetoothA2DP | I | I | I | ✗ | ✓ | ✗ | ✗ |"))
    #expect(
      lines.contains("| measurement | advisory | advisory | ✓ | ✓ | ✓ | ✗ | advisory |"))
    #expect(lines.contains("| videoChat | ✗ | ✗ | ✗ | ✗* | ✓ | ✗ | ✗ |"))
    #expect(
      lines.contains(
        """
        Switches of profile 'default': ambientAcceptsDuckOthers = true, \
        recordAcceptsDuckOthers = true, multiRouteMixable = true, videoChatAllowsRecord = false.
        """
      ))
  }

  @Test(
    "policy table resolves disputed cells for --profile (docs/avaudiosession.md §12 D2, D3, D4, D8)"
  )
  func table_otherProfiles_resolveCells() throws {
    func rows(_ profile: String) throws -> [String] {
      let command = try parse(
        ["policy", "table", "--format", "markdown", "--profile", profile],
        as: Sessionctl.PolicyCommand.Table.self)
      return try command.output().split(separator: "\n").map(String.init)
    }
    let docC = try rows("currentDocC")
    #expect(docC.contains("| videoChat | ✗ | ✗ | ✗ | ✓* | ✓ | ✗ | ✗ |"))
    #expect(docC.contains("| duckOthers | ✗* | ✗ | ✓ | ✗* | ✓ | ✗ | ✓* |"))
    let guide = try rows("programmingGuide")
    #expect(
      guide.contains(
        "| spokenAudio | advisory! | advisory! | ✓ | advisory! | advisory! | ✗ | advisory! |"))
    #expect(try rows("ios26_5").contains("| allowAirPlay | I! | I! | I! | ✗ | ✓ | ✗ | ✗ |"))
  }

  @Test(
    "policy table rejects an unknown format and lists the valid ones (docs/contract.md Bad input)")
  func table_unknownFormat_listsValidFormats() throws {
    do {
      _ = try Sessionctl.parseAsRoot(["policy", "table", "--format", "html"])
      Issue.record("--format html was accepted")
    } catch {
      #expect(
        Sessionctl.message(for: error)
          == "The value 'html' is invalid for '--format <format>'. "
          + "Please provide one of 'text' and 'markdown'."
      )
    }
  }

  @Test(
    "policy show --json is one JSON document, byte-identical across runs (docs/contract.md Policies)"
  )
  func show_json_isStableJSON() throws {
    let command = try parse(["policy", "show", "--json"], as: Sessionctl.PolicyCommand.Show.self)
    let first = try command.output()
    #expect(try command.output() == first)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
    #expect(
      Set(document.keys) == [
        "schemaVersion", "profile", "defaultProfile", "profiles", "categories", "modes", "options",
        "interactions", "routes", "devices", "apps",
      ])
    let apps = try #require(document["apps"] as? [[String: Any]])
    #expect(apps.first?["name"] as? String == "phoneCalls")
    #expect(apps.first?["category"] as? String == "playAndRecord")
    let categories = try #require(document["categories"] as? [String: Any])
    let ambient = try #require(categories["ambient"] as? [String: Any])
    let cells = try #require(ambient["options"] as? [String: Any])
    let duck = try #require(cells["duckOthers"] as? [String: String])
    #expect(duck == ["cell": "switch:ambientAcceptsDuckOthers", "effective": "allowed"])
  }

  @Test("policy show prints the profile, its switches and every table (docs/contract.md Policies)")
  func show_text_listsProfileSwitchesAndTables() throws {
    let command = try parse(
      ["policy", "show", "--profile", "ios26_5"], as: Sessionctl.PolicyCommand.Show.self)
    let lines = try command.output().split(separator: "\n").map(String.init)
    #expect(
      lines.contains {
        $0.hasPrefix(
          "Profile: ios26_5 (inherits default; the switches below are resolved): iOS 26.5 as reported"
        )
      })
    #expect(lines.contains("  invalidOptionError                   unspecified        §12 D5"))
    for title in [
      "Switches:", "Categories (spec §2, §4.1):", "Modes (spec §3):", "Routes (spec §7):",
      "Other programs' streams (apps.json; the first matching rule wins):",
    ] {
      #expect(lines.contains(title))
    }
    #expect(lines.contains("  dualRoute: multiRoute; requires allowBluetoothHFP"))
  }

  @Test(
    "policy show tells what a vanished app's victims get, and whether the profile overrides it (docs/engine.md \"Rules, and where they come from\")"
  )
  func show_vanishedApp_listsValueAndOrigin() throws {
    let command = try parse(["policy", "show"], as: Sessionctl.PolicyCommand.Show.self)
    let lines = try command.output().split(separator: "\n").map(String.init)
    #expect(
      lines.contains(
        "  vanishedApp                          endedShouldResume  from interactions.json (docs/engine.md \"Rules, and where they come from\")"
      ))
    #expect(
      lines.contains(
        """
          When an app vanishes (vanishedApp: endedShouldResume): its ducking and muting end; \
        the sessions it interrupted get ended with shouldResume
        """
      ))
    // A profile that overrides it says so, in text and in JSON.
    let fixture = try PolicyFixture()
    try fixture.edit(
      "profiles.json", replacing: "\"categoryChangeWhileInactive\": true,",
      with: "\"categoryChangeWhileInactive\": true, \"vanishedApp\": \"stayInterrupted\",")
    let guide = [
      "policy", "show", "--policies", fixture.directory, "--profile", "programmingGuide",
    ]
    let overridden = try parse(guide, as: Sessionctl.PolicyCommand.Show.self).output()
      .split(separator: "\n").map(String.init)
    #expect(
      overridden.contains(
        """
          vanishedApp                          stayInterrupted  this profile's override of \
        interactions.json (docs/engine.md "Rules, and where they come from")
        """
      ))
    #expect(
      overridden.contains(
        """
          When an app vanishes (vanishedApp: stayInterrupted, the profile's override): its \
        ducking and muting end; the sessions it interrupted get no ended (they stay interrupted)
        """
      ))
    let json = try parse(guide + ["--json"], as: Sessionctl.PolicyCommand.Show.self).output()
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    let interactions = try #require(document["interactions"] as? [String: Any])
    #expect(interactions["vanishedApp"] as? String == "endedShouldResume")
    #expect(interactions["effectiveVanishedApp"] as? String == "stayInterrupted")
    let profile = try #require(document["profile"] as? [String: Any])
    let switches = try #require(profile["switches"] as? [String: Any])
    #expect(switches["vanishedApp"] as? String == "stayInterrupted")
  }

  @Test("an unknown --profile is an error that lists the profiles (docs/contract.md Bad input)")
  func show_unknownProfile_listsProfiles() throws {
    let command = try parse(
      ["policy", "show", "--profile", "ios28"], as: Sessionctl.PolicyCommand.Show.self)
    do {
      _ = try command.output()
      Issue.record("an unknown profile was accepted")
    } catch {
      #expect(
        Sessionctl.fullMessage(for: error)
          == "Error: unknown profile 'ios28'; valid profiles are: "
          + "default, ios18, ios15, ios27, currentDocC, programmingGuide, ios26_5, linuxDesktop"
      )
      #expect(Sessionctl.exitCode(for: error) == .failure)
    }
  }
}
