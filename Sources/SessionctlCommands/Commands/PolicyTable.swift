import ArgumentParser

extension Sessionctl.PolicyCommand {
  /// `sessionctl policy table`.
  struct Table: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "table",
      abstract: "Print the category × option and category × mode matrices for a profile.",
      discussion:
        """
        Disputed cells are resolved for the profile and marked with '*'; a legend follows the \
        tables.
        """
    )

    /// How the matrices are laid out.
    enum Format: String, CaseIterable, ExpressibleByArgument {
      case text
      case markdown
    }

    @Option(help: ArgumentHelp("The layout: aligned text or Markdown tables.", valueName: "format"))
    var format: Format = .text

    @OptionGroup var policy: PolicyOptions

    func run() async throws {
      print(try output())
    }

    func output() throws -> String {
      let loaded = try policy.load()
      return PolicyRenderer(policy: loaded.policy).matrices(markdown: format == .markdown)
    }
  }
}
