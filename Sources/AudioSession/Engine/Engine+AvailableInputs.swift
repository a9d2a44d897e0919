/// `availableInputsChangeNotification` (iOS 26, docs/avaudiosession.md §6.5, §7.6): an input
/// device came or went, and a recording session's available inputs changed.
extension Engine {
  /// Notes each recording session's available inputs before an input device comes or goes.
  mutating func noteAvailableInputs() {
    inputsBefore.removeAll(keepingCapacity: true)
    for id in sessions.indices where sessions[id].alive && records(id) {
      inputsBefore.append((id, availableInputUIDs(id)))
    }
  }

  /// Posts `availableInputsChange` to each recording session whose available inputs differ from
  /// those noted (after its route change, if any).
  mutating func postAvailableInputsChanges() {
    let noted = inputsBefore
    inputsBefore.removeAll(keepingCapacity: true)
    for (id, uids) in noted where sessions[id].alive && availableInputUIDs(id) != uids {
      post(id, .availableInputsChange, because: explaining ? .fixed("§6.5") : nil)
    }
  }

  /// Whether the session's category has input (record, playAndRecord, multiRoute).
  func records(_ id: Int) -> Bool {
    policy.rules(for: sessions[id].configuration.category).hasInput
  }

  func availableInputUIDs(_ id: Int) -> [String] {
    router.availableInputs(for: routeKey(id, override: false), devices: devices).map(\.uid)
  }
}
