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
        policy directory, documented in its README.md.

        Without --policies DIR, sessionctl uses $AUDIOSESSION_POLICIES, else \
        $XDG_CONFIG_HOME/audiosession/policies (~/.config/audiosession/policies) if it exists, \
        else the directory installed with it, ../share/audiosession/policies from its bin/ \
        (/usr/local/share/audiosession/policies after 'make install'), else, for a build run from \
        its source checkout, that checkout's policies/. 'policy show' prints the directory used.
        """,
      subcommands: [Check.self, Show.self, Table.self]
    )
  }
}
