import ArgumentParser
import Testing

@testable import SessionctlCommands

/// The command words the step parser, the one-shot path and the messages use come from each
/// command's public configuration (docs/modules.md "What `sessionctl` links").
@Suite("Command words")
struct CommandWordTests {
  static func tree(_ type: any ParsableCommand.Type) -> [any ParsableCommand.Type] {
    [type] + type.configuration.subcommands.flatMap { tree($0) }
  }

  @Test("every command of sessionctl names itself, so that no word is derived from a type name")
  func everyCommand_setsItsCommandName() {
    let unnamed = Self.tree(Sessionctl.self).filter { $0.configuration.commandName == nil }
    #expect(unnamed.map { String(describing: $0) } == [])
  }

  @Test("a command word is the configured name; the one-shot path knows the live commands by it")
  func commandWord_isTheConfiguredName() {
    #expect(Sessionctl.Simulate.commandWord == "simulate")
    #expect(isOneShot("status"))
    #expect(isOneShot("simulate"))
    #expect(!isOneShot("scenario"))
    #expect(!isOneShot("nosuch"))
  }
}
