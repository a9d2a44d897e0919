public import AudioSession

/// The sessions the daemon holds for the command line, in creation order, with the configuration
/// each has in the state file: found, changed, added and removed in constant time (a daemon may
/// hold 10,000 of them, docs/protocol.md "Limits").
public struct HeldSessions: Sendable {
  /// Names in creation order; nil where a session was removed (``compactOrder()`` closes the
  /// gaps once they are half the list).
  private var order: [String?] = []
  private var slots: [String: (position: Int, configuration: SessionConfiguration)] = [:]
  private var gaps = 0

  public init() {}

  public init(_ entries: [SavedSession]) {
    for entry in entries { self[entry.name] = entry.configuration }
  }

  public var count: Int { slots.count }
  public var isEmpty: Bool { slots.isEmpty }

  public func contains(_ name: String) -> Bool { slots[name] != nil }

  /// A held session's configuration; setting one for a name not held adds it at the end, and
  /// nil removes it.
  public subscript(name: String) -> SessionConfiguration? {
    get { slots[name]?.configuration }
    set {
      guard let newValue else {
        remove(name)
        return
      }
      if let slot = slots[name] {
        slots[name] = (slot.position, newValue)
      } else {
        slots[name] = (order.count, newValue)
        order.append(name)
      }
    }
  }

  /// Forgets a session; true if it was held.
  @discardableResult
  public mutating func remove(_ name: String) -> Bool {
    guard let slot = slots.removeValue(forKey: name) else { return false }
    order[slot.position] = nil
    gaps += 1
    if gaps > 64, gaps * 2 > order.count { compactOrder() }
    return true
  }

  /// The names, in creation order.
  public var names: [String] { order.compactMap { $0 } }

  /// Every held session, in creation order.
  public var entries: [SavedSession] {
    order.compactMap { name in
      name.flatMap { name in
        slots[name].map { SavedSession(name: name, configuration: $0.configuration) }
      }
    }
  }

  private mutating func compactOrder() {
    let names = self.names
    order = names
    for (position, name) in names.enumerated() { slots[name]?.position = position }
    gaps = 0
  }
}

/// One session the daemon holds for the command line, as its state file keeps it.
public struct SavedSession: Sendable, Hashable {
  public var name: String
  public var configuration: SessionConfiguration

  public init(name: String, configuration: SessionConfiguration) {
    self.name = name
    self.configuration = configuration
  }
}

/// One change to the held sessions, as the state file's journal records it.
public enum SavedChange: Sendable, Hashable {
  case set(SavedSession)
  case remove(String)
}
