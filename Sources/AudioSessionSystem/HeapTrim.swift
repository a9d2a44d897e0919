#if canImport(Glibc)
  import Glibc
#endif

/// Hands the free memory of the C heap back to the system: glibc's `malloc_trim(0)`, which
/// releases the free pages of every arena, not only the top of the main one. A burst that
/// allocated a lot (messages queued for clients that did not read them) then leaves no lasting
/// cost in the daemon's resident memory (docs/protocol.md "Limits").
public enum HeapTrim {
  /// How long the daemon's engine thread has had no work before it trims the heap: once after
  /// start-up, and once after each burst of work, never while nothing happens.
  public static let quietSeconds: Double = 2

  private typealias TrimFunction = @convention(c) (Int) -> Int32

  /// `malloc_trim`, looked up once: the Glibc module does not export `<malloc.h>`.
  private static let function: TrimFunction? = {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else {
      return nil
    }
    return unsafeBitCast(symbol, to: TrimFunction.self)
  }()

  /// Releases the heap's free pages; returns whether any were released (false also where the
  /// C library has no `malloc_trim`).
  @discardableResult
  public static func trim() -> Bool {
    guard let function else { return false }
    return function(0) == 1
  }
}
