import ArgumentParser

@main
struct Sessionctl: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessionctl",
    abstract: "Configure, arbitrate and replay audio sessions with AVAudioSession's semantics.",
    subcommands: [PolicyCommand.self]
  )
}
