import ArgumentParser

extension ParsableCommand {
  /// The word that names this command on the command line, read from its public configuration
  /// (ArgumentParser's own `_commandName` is not public API). Every command of `sessionctl`
  /// names itself (`CommandWordTests`); the fallback spells a type name as ArgumentParser
  /// would derive it, words joined by `-`.
  static var commandWord: String {
    if let name = configuration.commandName { return name }
    var word = ""
    for character in String(describing: self) {
      if character.isUppercase, !word.isEmpty { word.append("-") }
      word.append(contentsOf: character.lowercased())
    }
    return word
  }
}
