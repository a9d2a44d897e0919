import AudioSession
import AudioSessionScenario
import SessionctlCommands

extension FuzzTarget {
  /// What is read back must serialise to JSON that reads back as the same value.
  static func json(_ bytes: [UInt8], document: Bool) {
    let options: JSONParser.Options = document ? .document : .wire
    guard let (value, _) = try? JSONParser.parse(bytes, options: options) else { return }
    let again = Array(value.serialized.utf8)
    guard let (reread, _) = try? JSONParser.parse(again, options: options) else {
      preconditionFailure("JSON read from the input does not read back once serialised")
    }
    precondition(reread.serialized == value.serialized, "JSON does not read back the same")
  }

  /// A scenario file read as `sessionctl scenario run` reads it, its steps parsed.
  static func scenario(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    guard let scenario = try? Scenario(yaml: text, file: "fuzz.yaml"),
      let table = FuzzPolicies.table
    else { return }
    _ = try? StepParser.plan(scenario, catalog: table.devices)
  }
}
