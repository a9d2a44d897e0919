import AudioSession
import AudioSessionTestSupport
import PropertyBased
import Testing

/// `Policy.validate` on the repository's tables against the spec's tables (§3, §4.1, §4.3),
/// for every profile.
@Suite struct PolicyValidationPropertyTests {
  static let profileNames = ["default", "currentDocC", "programmingGuide", "ios26_5"]

  /// Any subset of the ten named options.
  static let optionSets = Gen<UInt16>.bitSet(mask: 0x3FF).map { bits in
    CategoryOption.allCases.enumerated().filter { bits & (1 << $0.offset) != 0 }.map(\.element)
  }

  static func policy(_ profile: String) throws -> Policy {
    try Policy(table: PolicyLoader.load(directory: Repository.policies), profile: profile)
  }

  @Test(
    "validate agrees with the spec table; effective = explicit ∪ implied (docs/avaudiosession.md §4.1–§4.3)",
    arguments: profileNames)
  func validate_randomConfiguration_matchesSpecOracle(profile: String) async throws {
    let policy = try Self.policy(profile)
    let answers = try #require(SpecOracle.profiles[profile])
    await propertyCheck(
      count: 400, input: Gen<Category>.case, Gen<AudioSession.Mode>.case, Self.optionSets
    ) { category, mode, options in
      _ = Self.check(policy, answers, category, mode, options)
    }
  }

  /// Exhaustive for the default profile (78,848 configurations); the other profiles are covered
  /// by the property test above.
  @Test(
    "every category × mode × option set agrees with the spec table (docs/avaudiosession.md §3, §4.1, §12)"
  )
  func validate_everyConfiguration_matchesSpecOracle() throws {
    let profile = "default"
    let policy = try Self.policy(profile)
    let answers = try #require(SpecOracle.profiles[profile])
    var mismatches = 0
    for category in Category.allCases {
      for mode in AudioSession.Mode.allCases {
        for bits in 0..<UInt16(1 << CategoryOption.allCases.count) {
          let options = CategoryOption.allCases.enumerated()
            .filter { bits & (1 << $0.offset) != 0 }.map(\.element)
          if !Self.check(policy, answers, category, mode, options) { mismatches += 1 }
          // Stop after a few failures so that a broken table does not flood the report.
          guard mismatches < 5 else { return }
        }
      }
    }
  }

  /// Checks one configuration; returns false (after recording an issue) when it disagrees.
  @discardableResult
  static func check(
    _ policy: Policy, _ answers: SpecOracle.Answers, _ category: Category,
    _ mode: AudioSession.Mode, _ options: [CategoryOption]
  ) -> Bool {
    let requested = SessionConfiguration(
      category: category, mode: mode, options: CategoryOptions(options))
    let violations = SpecOracle.violations(category, mode, options, answers)
    let problem: String?
    switch policy.validate(requested) {
    case .success(let validated):
      let expected = SpecOracle.effective(category, SpecOracle.explicit(options))
      let effective = policy.effectiveOptions(validated.configuration)
      let warns = SpecOracle.warns(category, mode)
      if !violations.isEmpty {
        problem = "accepted, but the spec rejects it: \(violations)"
      } else if effective != expected {
        problem = "effective options \(effective.names), expected \(expected.names)"
      } else if validated.warnings.isEmpty == warns {
        problem = "warnings \(validated.warnings), expected \(warns ? "one" : "none")"
      } else {
        problem = nil
      }
    case .failure(let error):
      let named = violations.contains {
        $0.code == error.code && error.message.contains("'\($0.name)'")
      }
      if violations.isEmpty {
        problem = "rejected (\(error.message)), but the spec accepts it"
      } else if !named {
        problem =
          "rejected with \(error.code.name) '\(error.message)'; expected one of \(violations)"
      } else {
        problem = nil
      }
    }
    guard let problem else { return true }
    let label = "\(category.name) \(mode.name) [\(options.map(\.name).joined(separator: ", "))]"
    Issue.record("\(label): \(problem)")
    return false
  }

  @Test(
    "the JSON cells are the spec's cells (docs/avaudiosession.md §3, §4.1)",
    arguments: Category.allCases)
  func tableCells_everyCategory_equalSpecTable(category: Category) throws {
    let table = try PolicyLoader.load(directory: Repository.policies)
    let rules = try #require(table.categories[category])
    for option in CategoryOption.allCases {
      #expect(
        Self.specCell(rules.options[option]) == SpecOracle.cell(option, category),
        "option \(option.name) with \(category.name)")
    }
    for mode in AudioSession.Mode.allCases {
      let cell = table.modes[mode]?.categories[category]
      #expect(
        Self.specCell(cell) == SpecOracle.cell(mode, category),
        "mode \(mode.name) with \(category.name)")
    }
  }

  static func specCell(_ cell: OptionCell?) -> SpecOracle.Cell? {
    switch cell {
    case .allowed: .yes
    case .implied: .implied
    case .forbidden: .no
    case .profileSwitch(let name): .disputed(name)
    case nil: nil
    }
  }

  static func specCell(_ cell: ModeCell?) -> SpecOracle.Cell? {
    switch cell {
    case .allowed: .yes
    case .advisory: .advisory
    case .forbidden: .no
    case .profileSwitch(let name): .disputed(name)
    case nil: nil
    }
  }
}
