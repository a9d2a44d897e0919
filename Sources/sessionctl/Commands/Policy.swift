import ArgumentParser

extension Sessionctl {
  /// `sessionctl policy …`: check and read the policy tables.
  struct PolicyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "policy",
      abstract: "Check and read the policy tables.",
      discussion: """
        The policy tables (which modes and options each category accepts, who interrupts or ducks \
        whom, routes, device presets and the profiles for disputed behaviour) are JSON files in a \
        policy directory, documented in policies/README.md.
        """,
      subcommands: [Check.self, Show.self, Table.self]
    )
  }
}
