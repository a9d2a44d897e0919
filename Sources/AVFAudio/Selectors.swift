public import AudioSessionClient
import Foundation

// Linux's Foundation has no Objective-C runtime, so no `Selector`, `NSSelectorFromString` or
// `perform(_:with:)`. iOS code that supported iOS 9 and older called the category setters by
// name (`perform(NSSelectorFromString("setCategory:error:"), with: category)`); these stand-ins
// dispatch the selectors of AVAudioSession's setters to its Swift calls. `#selector(...)` and
// `@objc` are compiler features Linux lacks: `sessionctl port-ios` rewrites
// `#selector(handle(_:))` into `Selector(Self.handle(_:))`, a selector that holds the method
// itself, which `NotificationCenter.addObserver(_:selector:name:object:)` calls
// (SelectorObservers.swift; docs/ios-compat.md "Selectors").

/// A method's Objective-C name, or (made from a method, `Selector(Self.handle(_:))`) the method
/// itself, to call on an observer with a notification or with no argument.
public struct Selector: Hashable, @unchecked Sendable, CustomStringConvertible {
  public let name: String
  /// Calls the method on an object of its type; nil for a selector made from a name.
  let method: ((AnyObject, Notification) -> Void)?

  public init(_ name: String) {
    self.name = name
    method = nil
  }

  /// A method that takes the notification: `Selector(Self.handleInterruption(_:))`.
  public init<Target: AnyObject>(_ method: @escaping (Target) -> (Notification) -> Void) {
    name = "method(_:)"
    self.method = { object, notification in
      if let target = object as? Target { method(target)(notification) }
    }
  }

  /// A method without an argument, as a selector may name one: `Selector(Self.refresh)`.
  public init<Target: AnyObject>(_ method: @escaping (Target) -> () -> Void) {
    name = "method"
    self.method = { object, _ in
      if let target = object as? Target { method(target)() }
    }
  }

  public var description: String { name }

  public static func == (lhs: Selector, rhs: Selector) -> Bool {
    lhs.name == rhs.name && lhs.method == nil && rhs.method == nil
  }

  public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

public func NSSelectorFromString(_ aSelectorName: String) -> Selector { Selector(aSelectorName) }
public func NSStringFromSelector(_ aSelector: Selector) -> String { aSelector.name }

extension AVAudioSession {
  /// The selectors ``perform(_:with:)`` understands.
  static let performableSelectors: Set<String> = [
    "setCategory:error:", "setCategory:withOptions:error:",
    "setMode:error:", "setActive:error:", "setActive:withOptions:error:",
  ]

  /// `responds(to:)`: true for the setters ``perform(_:with:)`` dispatches.
  public func responds(to aSelector: Selector) -> Bool {
    Self.performableSelectors.contains(aSelector.name)
  }

  /// `perform(_:with:)`: calls the setter the selector names with `object` (a category, a mode,
  /// their raw strings, or a `Bool`/`NSNumber` for `setActive:`). As in Objective-C, where the
  /// error is left in a pointer the caller did not pass, a failure is not reported.
  @discardableResult
  public func perform(_ aSelector: Selector, with object: Any?) -> Unmanaged<AnyObject>! {
    perform(aSelector, with: object, with: nil)
  }

  /// `perform(_:with:with:)`: `setCategory:withOptions:error:` (options as
  /// ``CategoryOptions``, `UInt` or `NSNumber`), `setActive:withOptions:error:`.
  @discardableResult
  public func perform(_ aSelector: Selector, with object: Any?, with other: Any?)
    -> Unmanaged<AnyObject>!
  {
    switch aSelector.name {
    case "setCategory:error:":
      if let category = Self.category(object) { try? setCategory(category) }
    case "setCategory:withOptions:error:":
      if let category = Self.category(object) {
        try? setCategory(category, options: Self.options(other))
      }
    case "setMode:error:":
      if let mode = Self.mode(object) { try? setMode(mode) }
    case "setActive:error:":
      if let active = Self.bool(object) { try? setActive(active) }
    case "setActive:withOptions:error:":
      if let active = Self.bool(object) {
        try? setActive(active, options: SetActiveOptions(rawValue: Self.unsigned(other)))
      }
    default:
      break
    }
    return nil
  }

  private static func category(_ object: Any?) -> Category? {
    switch object {
    case let category as Category: category
    case let name as String: Category(rawValue: name)
    case let name as NSString: Category(rawValue: name as String)
    default: nil
    }
  }

  private static func mode(_ object: Any?) -> Mode? {
    switch object {
    case let mode as Mode: mode
    case let name as String: Mode(rawValue: name)
    case let name as NSString: Mode(rawValue: name as String)
    default: nil
    }
  }

  private static func options(_ object: Any?) -> CategoryOptions {
    if let options = object as? CategoryOptions { return options }
    return CategoryOptions(rawValue: unsigned(object))
  }

  private static func unsigned(_ object: Any?) -> UInt {
    switch object {
    case let value as UInt: value
    case let value as Int: UInt(max(value, 0))
    case let value as NSNumber: value.uintValue
    default: 0
    }
  }

  private static func bool(_ object: Any?) -> Bool? {
    switch object {
    case let value as Bool: value
    case let value as NSNumber: value.boolValue
    default: nil
    }
  }
}
