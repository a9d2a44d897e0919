import ArgumentParser
import AudioSession
import FoundationEssentials

extension Sessionctl.PolicyCommand {
  /// `sessionctl policy check [DIR]`.
  struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "check",
      abstract: "Validate a policy directory and report every problem in it at once.",
      discussion:
        """
        Prints one line with what the directory holds, or every problem with its file and key \
        path and exits with status 1. Each apps.json rule's configuration goes through the \
        validation setCategory applies, under the profile --profile names (default: the \
        directory's default): a rule it refuses is a problem, an advisory note a warning line. \
        A directory without apps.json gets a warning: other programs' streams would not be \
        arbitrated.
        """
    )

    @Argument(
      help: ArgumentHelp(
        "The policy directory to check (default: as for --policies).", valueName: "dir"))
    var directory: String?

    @OptionGroup var policy: PolicyOptions

    func validate() throws {
      if let directory, let option = policy.directory, directory != option {
        throw ValidationError(
          "Give the policy directory once: either as the argument or with --policies.")
      }
    }

    func run() async throws {
      print(try output(support: nil))
    }

    /// The OK line; throws the problems. `pulse.json`, when present, is checked too, and its
    /// problems are reported with the other files' (every problem at once, docs/contract.md
    /// "Policies"), by the PulseAudio backend's reader: `support`, the daemon program's; without
    /// it, this command is handed over to the daemon program (``DaemonProgram/handOver()``).
    func output(support: (any PulseSupport)?) throws -> String {
      let loaded: PolicyOptions.Loaded
      do {
        loaded = try policy.load(directory: directory)
      } catch PolicyOptions.LoadError.invalid(let directory, let error) {
        let pulseProblems = try Self.pulseProblems(directory: directory, support: support)
        throw PolicyOptions.LoadError.invalid(
          directory: directory,
          PolicyValidationError(problems: error.problems + pulseProblems))
      }
      // As the daemon would configure the streams each rule matches (docs/apps.md "Rules").
      let appRules = loaded.policy.appRuleProblems()
      var problems = appRules.failed
      var summary = Self.summary(loaded.policy.table, directory: loaded.directory)
      if FileManager.default.fileExists(atPath: loaded.directory + "/pulse.json") {
        do {
          let rules = try DaemonProgram.support(support).checkPolicy(directory: loaded.directory)
          summary += " pulse.json: \(rules) port rules."
        } catch let error as PolicyValidationError {
          problems += error.problems
        }
      }
      guard problems.isEmpty else {
        throw PolicyOptions.LoadError.invalid(
          directory: loaded.directory, PolicyValidationError(problems: problems))
      }
      var warnings = appRules.warnings.map { "warning: \($0)" }
      let apps = loaded.directory + "/" + PolicyLoader.appsFileName
      if !FileManager.default.fileExists(atPath: apps) {
        warnings.append(Self.noAppsWarning(directory: loaded.directory))
      }
      return ([summary] + warnings).joined(separator: "\n")
    }

    /// What a directory without `apps.json` is told.
    static func noAppsWarning(directory: String) -> String {
      """
      warning: \(directory) has no \(PolicyLoader.appsFileName): on the PulseAudio backend other \
      programs' streams would not be arbitrated (never interrupted, ducked or muted); copy the \
      shipped one (docs/apps.md "Rules")
      """
    }

    /// The problems of `pulse.json` in `directory`, if it is there.
    static func pulseProblems(directory: String, support: (any PulseSupport)?) throws
      -> [PolicyProblem]
    {
      guard FileManager.default.fileExists(atPath: directory + "/pulse.json") else { return [] }
      let support = try DaemonProgram.support(support)
      do throws(PolicyValidationError) {
        _ = try support.checkPolicy(directory: directory)
        return []
      } catch {
        return error.problems
      }
    }

    static func summary(_ table: PolicyTable, directory: String) -> String {
      func count(_ number: Int, _ noun: String, plural: String? = nil) -> String {
        "\(number) \(number == 1 ? noun : plural ?? noun + "s")"
      }
      let counts = [
        count(table.categories.count, "category", plural: "categories"),
        count(table.modes.count, "mode"), count(table.options.count, "option"),
        count(table.interactions.rules.count, "interaction rule"),
        count(table.devices.presetOrder.count, "device preset"),
        count(table.profileOrder.count, "profile"),
      ]
      return
        """
        OK: \(directory): \(counts.joined(separator: ", ")); default profile \
        '\(table.defaultProfile)'.\(table.apps.rules.isEmpty ? "" : " apps.json: \(count(table.apps.rules.count, "rule")).")
        """
    }
  }
}
