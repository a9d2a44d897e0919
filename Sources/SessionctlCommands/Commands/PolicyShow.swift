import ArgumentParser

extension Sessionctl.PolicyCommand {
  /// `sessionctl policy show`.
  struct Show: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "show",
      abstract: "Print every policy table and the selected profile's switches.",
      discussion:
        """
        With --json the output is one JSON document whose keys and order do not change between \
        runs.
        """
    )

    @Flag(help: "Print a machine-readable JSON document instead of text.")
    var json = false

    @OptionGroup var policy: PolicyOptions

    func run() async throws {
      print(try output())
    }

    func output() throws -> String {
      let loaded = try policy.load()
      let renderer = PolicyRenderer(policy: loaded.policy)
      return json ? renderer.json() : renderer.summary(directory: loaded.directory)
    }
  }
}
