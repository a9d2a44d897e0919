public import Foundation

// `NotificationCenter.addObserver(_:selector:name:object:)`, which Linux's Foundation lacks (it
// has no Objective-C runtime): the form `sessionctl port-ios` leaves iOS code in, with the
// selector made from the method (`Selector(Self.handleInterruption(_:))`, Selectors.swift).
// docs/ios-compat.md "Selectors".

extension NotificationCenter {
  /// `addObserver(_:selector:name:object:)`: calls the selector's method on `observer` with each
  /// matching notification (or without an argument, for a method that takes none), on the posting
  /// thread, as Foundation calls a selector. The observer is held weakly, as Foundation holds it:
  /// no retain cycle, and once it is gone its registration goes at the next matching post. A
  /// selector made from a name alone calls nothing (there is no runtime to find the method).
  public func addObserver(
    _ observer: Any, selector aSelector: Selector, name aName: NSNotification.Name?,
    object anObject: Any?
  ) {
    guard let method = aSelector.method else { return }
    let target = WeakObserver(observer as AnyObject, method)
    let registration = SelectorRegistration()
    registration.token = addObserver(forName: aName, object: anObject, queue: nil) {
      [weak self] notification in
      guard let object = target.object else {
        if let token = registration.take() { self?.removeObserver(token) }
        return
      }
      target.method(object, notification)
    }
  }
}

/// The observer, weakly, and the method to call on it. Unchecked: the method runs on the posting
/// thread, as a selector's does.
private final class WeakObserver: @unchecked Sendable {
  weak var object: AnyObject?
  let method: (AnyObject, Notification) -> Void

  init(_ object: AnyObject, _ method: @escaping (AnyObject, Notification) -> Void) {
    self.object = object
    self.method = method
  }
}

/// The block observer's token, removed once (the observer went).
private final class SelectorRegistration: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: (any NSObjectProtocol)?

  var token: (any NSObjectProtocol)? {
    get { lock.withLock { stored } }
    set { lock.withLock { stored = newValue } }
  }

  func take() -> (any NSObjectProtocol)? {
    lock.withLock {
      defer { stored = nil }
      return stored
    }
  }
}
