/// What an app declares: category, mode, route-sharing policy and the options it set explicitly.
public struct SessionConfiguration: Sendable, Hashable {
  public var category: Category
  public var mode: Mode
  /// The explicit options; implied ones are derived by ``Policy/effectiveOptions(_:)``.
  public var options: CategoryOptions
  /// `setCategory(_:mode:policy:options:)`'s policy; the other setCategory calls set `default`.
  public var policy: RouteSharingPolicy

  public init(
    category: Category = .soloAmbient, mode: Mode = .default, options: CategoryOptions = [],
    policy: RouteSharingPolicy = .default
  ) {
    self.category = category
    self.mode = mode
    self.options = options
    self.policy = policy
  }

  /// A session that was never configured (docs/avaudiosession.md §2: soloAmbient, default, no
  /// options).
  public static let initial = SessionConfiguration()
}
