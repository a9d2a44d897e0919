extension StringProtocol {
  /// The text without leading and trailing whitespace and newlines (what a file such as a PID
  /// file or /proc's `comm` holds around its value).
  public func trimmingWhitespace() -> String {
    String(self.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
  }
}
