/// What sessionctl makes of its command line before either parser reads it (the fast path,
/// `OneShotRequest.init(arguments:)`, or ArgumentParser), so that both read the same words
/// (docs/contract.md "Commands"):
///
/// - **Options before the command.** `sessionctl --socket P status` is `sessionctl status --socket
///   P`: the options every command of a kind shares (``leadingOptions``), given before the
///   command, move to the end of the line (before a `--`, whose words `run` passes on).
/// - **Negative numbers are values.** ArgumentParser reads any word that starts with `-` as an
///   option, so `input-gain -0.5` and `prefer sampleRate -5` were "Missing expected argument". No
///   option of sessionctl is named like a number, so a word that reads as a negative number is a
///   value: after an option that takes one it is joined to it (`--timeout -1` is `--timeout=-1`),
///   and anywhere else it is a positional value, which ArgumentParser reads after `--` (the
///   line's options first, then `--`, then its positional words, in their order). Each value is
///   then judged by its own rule: clamped, or refused with its range.
enum CommandLineWords {
  /// Options that may come before the command, with whether each takes a value.
  static let leadingOptions: [String: Bool] = [
    "--socket": true, "--timeout": true, "--session": true, "--policies": true,
    "--profile": true, "--json": false,
  ]

  /// Every option of every command that takes a value (`CommandLineWordsTests` checks this
  /// against what ArgumentParser says of each command).
  static let valuedOptions: Set<String> = [
    "--app-name", "--backend", "--binary", "--format", "--group", "--log-level",
    "--max-connections", "--mode", "--options", "--pid", "--player", "--policies", "--policy",
    "--profile", "--property", "--role", "--server-kind", "--session", "--socket", "--state",
    "--style",
    "--timeline", "--timeout",
  ]

  /// Commands whose words after the name are options and values only (no subcommands), where a
  /// negative positional value may be moved after `--`.
  static let commandsWithSubcommands: Set<String> = ["simulate", "scenario", "policy", "run"]

  /// Whether `word` is a negative number: `-` then a digit or `.` and a digit, all of it a
  /// `Double`.
  static func isNegativeNumber(_ word: String) -> Bool {
    guard word.hasPrefix("-"), word.count > 1 else { return false }
    let rest = word.dropFirst()
    guard let first = rest.first, first.isASCII, first.isNumber || first == "." else {
      return false
    }
    return Double(word) != nil
  }

  /// The command line (without the program's name) as the parsers read it.
  static func normalized(_ arguments: [String]) -> [String] {
    joinNegativeValues(movingLeadingOptions(arguments))
  }

  /// `--socket P status …` → `status … --socket P`.
  static func movingLeadingOptions(_ arguments: [String]) -> [String] {
    var leading: [String] = []
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      let name = String(word.split(separator: "=", maxSplits: 1).first ?? "")
      guard let takesValue = leadingOptions[name] else { break }
      if takesValue, !word.contains("=") {
        guard index + 1 < arguments.count else { return arguments }
        leading += [word, arguments[index + 1]]
        index += 2
      } else {
        leading.append(word)
        index += 1
      }
    }
    // Nothing moved, or nothing but options (ArgumentParser says what is missing).
    guard !leading.isEmpty, index < arguments.count, !arguments[index].hasPrefix("-") else {
      return arguments
    }
    var rest = Array(arguments[index...])
    let end = rest.firstIndex(of: "--") ?? rest.endIndex
    rest.insert(contentsOf: leading, at: end)
    return rest
  }

  /// Negative numbers read as values (see the type's discussion).
  static func joinNegativeValues(_ arguments: [String]) -> [String] {
    guard arguments.contains(where: isNegativeNumber), !arguments.contains("--") else {
      return arguments
    }
    // After an option that takes a value: `--timeout=-1`.
    var words: [String] = []
    var index = 0
    while index < arguments.count {
      let word = arguments[index]
      if valuedOptions.contains(word), index + 1 < arguments.count,
        isNegativeNumber(arguments[index + 1])
      {
        words.append(word + "=" + arguments[index + 1])
        index += 2
      } else {
        words.append(word)
        index += 1
      }
    }
    guard let command = words.first, !commandsWithSubcommands.contains(command),
      words.dropFirst().contains(where: isNegativeNumber)
    else { return words }
    // Positional values after `--`, in their order, the options (and their values) before it.
    var options: [String] = []
    var positionals: [String] = []
    index = 1
    while index < words.count {
      let word = words[index]
      if word.hasPrefix("-"), !isNegativeNumber(word) {
        options.append(word)
        if valuedOptions.contains(word), index + 1 < words.count {
          options.append(words[index + 1])
          index += 1
        }
      } else {
        positionals.append(word)
      }
      index += 1
    }
    return [command] + options + ["--"] + positionals
  }
}
