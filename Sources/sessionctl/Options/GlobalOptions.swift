import ArgumentParser

/// Where the policy tables come from and which profile of them applies.
struct PolicyOptions: ParsableArguments {
  @Option(
    name: .customLong("policies"),
    help: ArgumentHelp(
      "The policy directory to load.", discussion: "Default: $AUDIOSESSION_POLICIES, else ./policies, else the policies/ of the source checkout this tool was built from.",
      valueName: "dir"))
  var directory: String?

  @Option(help: ArgumentHelp("The policy profile to apply (see 'sessionctl policy show').", valueName: "name"))
  var profile: String?
}
