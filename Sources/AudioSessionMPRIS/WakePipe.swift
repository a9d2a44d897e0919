#if canImport(Glibc)
  import Glibc
#endif

/// A non-blocking pipe that wakes a bus thread out of `poll`: ``wake()`` from any thread, the
/// thread polls ``readEnd`` and ``drain()``s it. Closed when the owner is freed.
final class WakePipe: Sendable {
  /// The end the bus thread polls.
  let readEnd: Int32
  private let writeEnd: Int32

  init() {
    var ends: [Int32] = [-1, -1]
    _ = pipe(&ends)
    for end in ends {
      _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
      _ = fcntl(end, F_SETFD, FD_CLOEXEC)
    }
    readEnd = ends[0]
    writeEnd = ends[1]
  }

  deinit {
    close(readEnd)
    close(writeEnd)
  }

  func wake() {
    var byte: UInt8 = 1
    _ = write(writeEnd, &byte, 1)
  }

  /// Empties the pipe, so that the next `poll` waits again.
  func drain() {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readEnd, &buffer, buffer.count) > 0 {}
  }
}
