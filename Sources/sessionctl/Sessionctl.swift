import ArgumentParser

@main
struct Sessionctl: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sessionctl",
    abstract: "Configure, arbitrate and replay audio sessions with AVAudioSession's semantics.",
    subcommands: [
      SetCategory.self, Activate.self, Deactivate.self, Play.self, Stop.self, Override.self,
      Remove.self, Status.self, Route.self, Devices.self, Simulate.self, ScenarioCommand.self,
      PolicyCommand.self,
    ]
  )
}
